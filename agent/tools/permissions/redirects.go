package permissions

import (
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// harmlessTargets are the files a redirect may write anywhere.
var harmlessTargets = map[string]bool{"/dev/null": true, "/dev/stdout": true, "/dev/stderr": true}

// redirect checks one redirect of a statement: substitutions in it, and a
// write to a target outside the workspace, to a protected path, or to one
// the text does not determine. base is the directory relative targets
// resolve against ("" when unknown).
func (w *walker) redirect(r *syntax.Redirect, sc scope, base string, owner *cmdPart) {
	sc.owner = owner
	w.scan(r.Word, sc)
	if r.Hdoc != nil {
		w.scan(r.Hdoc, sc)
	}
	if !writes(r.Op) {
		return
	}
	t := sc.convert(r.Word)
	if r.Op == syntax.DplOut && t.lit && isFdDup(t.text) {
		return
	}
	force := func(reason string) {
		if owner == nil {
			w.force(nil, sc, r, reason)
			return
		}
		w.force(owner, sc, nil, reason)
	}
	if !t.lit {
		force("redirect to an unknown target: " + t.text)
		return
	}
	raw, ok := targetPath(t.text, base, w.env.Home)
	if !ok {
		force("redirect to an unknown target: " + t.text)
		return
	}
	if reason := writeReason(filepath.Clean(raw), physical(raw), w.env); reason != "" {
		force(reason)
	}
}

// writes reports whether a redirect operator writes its target (>&word
// writes a file unless word is a descriptor).
func writes(op syntax.RedirOperator) bool {
	switch op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll,
		syntax.RdrAllClob, syntax.AppAll, syntax.AppAllClob, syntax.RdrInOut, syntax.DplOut:
		return true
	}
	return false
}

// isFdDup reports whether s names a descriptor (>&2) or closes one (>&-).
func isFdDup(s string) bool {
	s = strings.TrimSuffix(s, "-")
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// resolveTarget makes a cd operand absolute as cd does by default: ~ and
// ~/x from home, relative ones from base, with .. taking off the name
// before it whatever that name is. ok is false when it cannot be known
// (~user, a relative path after an unknown cd).
func resolveTarget(t, base, home string) (string, bool) {
	raw, ok := targetPath(t, base, home)
	if !ok {
		return "", false
	}
	return filepath.Clean(raw), true
}

// targetPath is t made absolute (see resolveTarget) but not cleaned: the
// path a system call gets, whose .. follows the symbolic link before it.
func targetPath(t, base, home string) (string, bool) {
	switch {
	case t == "~" || strings.HasPrefix(t, "~/"):
		if home == "" {
			return "", false
		}
		return home + t[1:], true
	case strings.HasPrefix(t, "~"):
		return "", false
	case filepath.IsAbs(t):
		return t, true
	case base == "":
		return "", false
	}
	return base + string(filepath.Separator) + t, true
}

// physical resolves the absolute path p as the kernel does when a file is
// opened: each existing name's symbolic links before the .. after it, so
// that link/../x lies beside the link's target, not in the link's
// directory. From the first name that does not exist the rest is read as
// written.
func physical(p string) string {
	names := strings.Split(p, string(filepath.Separator))
	cur := string(filepath.Separator)
	for i, name := range names {
		switch name {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, name)
		real, err := filepath.EvalSymlinks(next)
		if err != nil {
			return filepath.Join(append([]string{next}, names[i+1:]...)...)
		}
		cur = real
	}
	return cur
}

// writeReason says why writing target forces an ask, "" when it does not:
// outside the workspace or under a protected path, checked both as written
// (target, cleaned) and as the kernel resolves it (real).
func writeReason(target, real string, env Env) string {
	if harmlessTargets[target] {
		return ""
	}
	switch {
	case protectedBy(target, env) != "":
		return "writes a protected path: " + target
	case protectedBy(real, env) != "":
		return "writes a protected path: " + real
	case !within(target, env.Workspace):
		return "writes outside the workspace: " + target
	case !within(real, env.Workspace):
		return "writes outside the workspace: " + real
	}
	return ""
}

// protectedBy returns the protected path p lies in, "".
func protectedBy(p string, env Env) string {
	for _, prot := range env.Protected {
		if prot == "" {
			continue
		}
		if within(p, prot) || within(p, resolveExisting(prot)) {
			return prot
		}
	}
	return ""
}

// within reports whether p is dir or lies beneath it; nothing lies within "".
func within(p, dir string) bool {
	if dir == "" {
		return false
	}
	dir = filepath.Clean(dir)
	if p == dir || dir == "/" {
		return true
	}
	return strings.HasPrefix(p, dir+string(filepath.Separator))
}

// resolveExisting resolves the symbolic links of the longest existing
// ancestor of p (p itself when it exists) and appends the rest.
func resolveExisting(p string) string {
	p = filepath.Clean(p)
	rest := ""
	for cur := p; ; {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(real, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}
