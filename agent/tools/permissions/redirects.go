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
	target, ok := resolveTarget(t.text, base, w.env.Home)
	if !ok {
		force("redirect to an unknown target: " + t.text)
		return
	}
	if reason := writeReason(target, w.env); reason != "" {
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

// resolveTarget makes a redirect target or cd operand absolute: ~ and ~/x
// from home, relative ones from base, with .. resolved. ok is false when it
// cannot be known (~user, a relative path after an unknown cd).
func resolveTarget(t, base, home string) (string, bool) {
	switch {
	case t == "~" || strings.HasPrefix(t, "~/"):
		if home == "" {
			return "", false
		}
		return filepath.Join(home, t[1:]), true
	case strings.HasPrefix(t, "~"):
		return "", false
	case filepath.IsAbs(t):
		return filepath.Clean(t), true
	case base == "":
		return "", false
	}
	return filepath.Join(base, t), true
}

// writeReason says why writing target forces an ask, "" when it does not:
// outside the workspace or under a protected path, checked both as written
// and with its existing symbolic links resolved.
func writeReason(target string, env Env) string {
	if harmlessTargets[target] {
		return ""
	}
	real := resolveExisting(target)
	if p := protectedBy(target, env); p != "" || real != target && protectedBy(real, env) != "" {
		return "writes a protected path: " + target
	}
	if !within(real, env.Workspace) || !within(target, env.Workspace) {
		return "writes outside the workspace: " + target
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
