package permissions

import (
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// globMeta are the bytes doublestar gives a meaning to.
const globMeta = `*?[]{}\`

// pathPatterns returns the absolute glob patterns a path spec stands for,
// in gitignore style: //abs is absolute, ~/x is under home, /x, ./x and any
// spec with a slash inside are under the workspace, and a name without a
// slash (.env, *.key) matches at any depth under the workspace — anywhere
// at all for a deny rule, which errs on the side of refusing. A trailing
// slash is dropped: every pattern also covers what lies beneath a match.
// Each pattern comes with its symlink-resolved twin when they differ, so a
// rule under a symlinked directory matches the resolved paths the gate
// passes.
func pathPatterns(spec string, kind Kind, env Env) []string {
	if len(spec) > 2 {
		spec = strings.TrimSuffix(spec, "/")
	}
	var full []string
	switch {
	case strings.HasPrefix(spec, "//"):
		full = []string{spec[1:]}
	case spec == "~" || strings.HasPrefix(spec, "~/"):
		if env.Home == "" {
			return nil
		}
		full = []string{escapeMeta(env.Home) + spec[1:]}
	case env.Workspace == "":
		return nil
	case spec == "" || spec == ".":
		full = []string{escapeMeta(env.Workspace)}
	case strings.HasPrefix(spec, "./"):
		full = []string{escapeMeta(env.Workspace) + spec[1:]}
	case strings.HasPrefix(spec, "/") || strings.Contains(spec, "/"):
		full = []string{escapeMeta(env.Workspace) + "/" + strings.TrimPrefix(spec, "/")}
	default:
		full = []string{escapeMeta(env.Workspace) + "/**/" + spec}
		if kind == Deny {
			full = append(full, "/**/"+spec)
		}
	}
	var out []string
	for _, f := range full {
		f = cleanPattern(f)
		out = append(out, f)
		if real := resolvePattern(f); real != f {
			out = append(out, real)
		}
	}
	return out
}

// matchPath reports whether path p, or a directory above it, matches one of
// the patterns: a rule on a directory covers everything beneath it.
func matchPath(patterns []string, p string) bool {
	p = filepath.Clean(p)
	for cur := p; ; {
		for _, pat := range patterns {
			if ok, _ := doublestar.Match(pat, cur); ok {
				return true
			}
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return false
		}
		cur = parent
	}
}

// cleanPattern resolves . and .. in the literal head of a pattern (the part
// before its first glob character), leaving the glob as written.
func cleanPattern(pat string) string {
	head, tail := splitPattern(pat)
	head = filepath.Clean(head)
	if tail == "" {
		return head
	}
	return strings.TrimSuffix(head, "/") + "/" + tail
}

// resolvePattern resolves the symbolic links of a pattern's literal head.
func resolvePattern(pat string) string {
	head, tail := splitPattern(pat)
	if strings.ContainsAny(head, globMeta) {
		return pat
	}
	real := resolveExisting(head)
	if tail == "" {
		return escapeMeta(real)
	}
	return strings.TrimSuffix(escapeMeta(real), "/") + "/" + tail
}

// splitPattern splits pat at the last slash before its first glob
// character: a literal directory (escapes included) and the rest.
func splitPattern(pat string) (head, tail string) {
	i := strings.IndexAny(pat, globMeta)
	if i < 0 {
		return pat, ""
	}
	slash := strings.LastIndexByte(pat[:i], '/')
	if slash < 0 {
		return "", pat
	}
	if slash == 0 {
		return "/", pat[1:]
	}
	return pat[:slash], pat[slash+1:]
}

// escapeMeta quotes the glob characters of a literal path.
func escapeMeta(s string) string {
	if !strings.ContainsAny(s, globMeta) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(globMeta, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
