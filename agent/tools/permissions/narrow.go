package permissions

import (
	"os"
	"path/filepath"
	"strings"
)

// Narrow returns the rules a grant of call records, as narrow as the
// request (issue 31, "Grants that remember their scope"), parsed as allow
// rules; nil when the call is already allowed, is denied, or only asks
// because an ask rule says so (which no allow overrides).
//
//   - bash: per part no rule covers, Bash(<prefix>:*), the prefix being the
//     command's words up to the first argument that looks like a path or a
//     value (wrappers included); a command that asks by itself
//     (substitution, an outside redirect, …) gets the exact command,
//     the only rule that covers it.
//   - file tools: a path outside the workspace gives its directory
//     (Read(//abs/dir/**), Edit(//abs/dir/**)); inside, the file's
//     directory relative to it (Edit(./src/**)), or the file itself at the
//     top. Writes to protected paths get none: they always ask.
//   - fetch: WebFetch(domain:host); mcp: the tool's name; task: Task.
//
// It never returns the whole of bash or of a file tool.
func Narrow(rules []Rule, call Call, env Env) []Rule {
	return judge(rules, call, env).narrow(rules, call, env)
}

func (j judgement) narrow(rules []Rule, call Call, env Env) []Rule {
	d := j.decision
	if d.Verdict == Allowed || d.Verdict == Denied || j.askRule {
		return nil
	}
	var texts []string
	switch {
	case call.Tool == toolBash:
		texts = j.bashGrants(call)
	case isFileTool(call.Tool):
		texts = fileGrants(d.Parts, call.Tool, env)
	case call.Tool == toolFetch:
		if host := hostOf(call.URL); host != "" {
			texts = []string{"WebFetch(" + domainMark + host + ")"}
		}
	case strings.HasPrefix(call.Tool, mcpPrefix):
		texts = []string{call.Tool}
	case call.Tool == toolTask:
		texts = []string{"Task"}
	}
	var out []Rule
	seen := map[string]bool{}
	for _, t := range texts {
		if seen[t] {
			continue
		}
		seen[t] = true
		if r, err := Parse(t, Allow); err == nil {
			out = append(out, r)
		}
	}
	return out
}

// bashGrants returns a prefix rule per part no rule covers, or the exact
// command when it asks by itself, has no part at all ([[ -f x ]]) or a part
// has no prefix a rule can hold (a command word that is empty or all
// blanks).
func (j judgement) bashGrants(call Call) []string {
	exact := []string{"Bash(" + trimBlanks(call.Command) + ")"}
	if j.decision.Forced || len(j.decision.Parts) == 0 {
		return exact
	}
	var out []string
	for i, p := range j.decision.Parts {
		if p.Verdict != Undecided {
			continue
		}
		text := "Bash(" + commandPrefix(j.cmdParts[i].words) + prefixMark + ")"
		if r, err := Parse(text, Allow); err != nil || !matchCommand(r, p.Text) {
			return exact
		}
		out = append(out, text)
	}
	return out
}

// commandPrefix returns the words of a command a grant keeps: assignments
// before it, the command itself, then its arguments up to the first that
// looks like a path or a value.
func commandPrefix(words []string) string {
	i := 0
	for i < len(words) && isAssignment(words[i]) {
		i++
	}
	if i < len(words) {
		i++
	}
	for i < len(words) && !looksLikeValue(words[i]) {
		i++
	}
	return strings.Join(words[:i], " ")
}

// valueBytes mark an argument as a path or a value rather than a
// subcommand: git commit -m, npm install left-pad@1.0, ls ./src.
const valueBytes = "/.=~$*?[]{}()<>|;&!#%+@,'\"`\\ \t\n"

// looksLikeValue reports whether a command argument is a path or a value.
func looksLikeValue(w string) bool {
	if w == "" || w[0] == '-' || w[0] >= '0' && w[0] <= '9' {
		return true
	}
	return strings.ContainsAny(w, valueBytes)
}

// fileGrants returns a rule per path no rule covers (protected writes,
// which always ask, get none).
func fileGrants(parts []Part, tool string, env Env) []string {
	name := "Read"
	if writesFiles(tool) {
		name = "Edit"
	}
	var out []string
	for _, p := range parts {
		if p.Verdict != Undecided {
			continue
		}
		if spec := grantSpec(p.Text, env); spec != "" {
			out = append(out, name+"("+spec+")")
		}
	}
	return out
}

// grantSpec returns the path spec a grant of p records: its directory
// (p itself when p is a directory) as //abs/dir/** outside the workspace
// and ./dir/** inside it; a file at the top of the workspace, or one
// directly under /, is named alone.
func grantSpec(p string, env Env) string {
	p = filepath.Clean(p)
	if p == "/" {
		return ""
	}
	dir := p
	if info, err := os.Stat(p); err != nil || !info.IsDir() {
		dir = filepath.Dir(p)
	}
	if within(p, env.Workspace) {
		rel, err := filepath.Rel(env.Workspace, dir)
		if err != nil {
			return ""
		}
		if rel == "." {
			if dir == p {
				return "./"
			}
			return "./" + escapeMeta(filepath.Base(p))
		}
		return "./" + escapeMeta(filepath.ToSlash(rel)) + "/**"
	}
	if dir == "/" {
		return "/" + escapeMeta(p)
	}
	return "/" + escapeMeta(dir) + "/**"
}
