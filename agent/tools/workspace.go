package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/steer-tui/steer/agent"
)

// maxSymlinkHops bounds how many symbolic links one path may pass through
// before it counts as a loop, as the kernel's ELOOP does.
const maxSymlinkHops = 255

// workspace is the directory the file tools are confined to. Its root is
// absolute with its own symlinks resolved, so that a path resolved the same
// way can be compared with it as text.
type workspace struct{ root string }

// newWorkspace resolves dir once. A root that does not exist (yet) is kept
// as an absolute clean path; paths below it compare the same way.
func newWorkspace(dir string) workspace {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = filepath.Clean(dir)
	}
	if real, err := resolveReal(abs); err == nil {
		abs = real
	}
	return workspace{root: abs}
}

// target is where a path the model gave leads.
type target struct {
	// given is the path as the model wrote it ("" for the workspace).
	given string
	// path is absolute, clean and free of symbolic links as far as the path
	// exists; the part that does not exist yet is appended as written.
	path string
	// inside is set when path is the workspace root or below it.
	inside bool
}

// locate resolves p: a relative path is taken from the workspace root, an
// empty one is the root itself, and every symbolic link on the way is
// followed — including a dangling one, whose target is where a write would
// land.
func (w workspace) locate(p string) (target, error) {
	abs := p
	switch {
	case p == "":
		abs = w.root
	case !filepath.IsAbs(p):
		abs = filepath.Join(w.root, p)
	}
	real, err := resolveReal(filepath.Clean(abs))
	if err != nil {
		return target{given: p}, err
	}
	return target{given: p, path: real, inside: within(w.root, real)}, nil
}

// within reports whether path is root or lies below it; both are clean and
// absolute.
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// resolveReal follows every symbolic link in the clean absolute path abs,
// one component at a time, the way the kernel would when opening or
// creating it. Unlike filepath.EvalSymlinks it also resolves a path whose
// end does not exist yet, and follows a dangling link to where it points.
func resolveReal(abs string) (string, error) {
	resolved := string(filepath.Separator)
	rest := splitPath(abs)
	hops := 0
	for len(rest) > 0 {
		next := filepath.Join(resolved, rest[0])
		rest = rest[1:]
		info, err := os.Lstat(next)
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
			// Nothing below a missing component exists either; it keeps
			// its written form.
			return filepath.Join(append([]string{next}, rest...)...), nil
		case err != nil:
			return "", err
		case info.Mode()&fs.ModeSymlink == 0:
			resolved = next
			continue
		}
		if hops++; hops > maxSymlinkHops {
			return "", fmt.Errorf("too many levels of symbolic links at %s", next)
		}
		link, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(link) {
			resolved = string(filepath.Separator)
		}
		rest = append(splitPath(link), rest...)
	}
	return resolved, nil
}

// splitPath splits a path into its non-empty components; "." is dropped and
// ".." kept, for Join to apply against a resolved prefix.
func splitPath(p string) []string {
	var parts []string
	for _, c := range strings.Split(p, string(filepath.Separator)) {
		if c != "" && c != "." {
			parts = append(parts, c)
		}
	}
	return parts
}

// grantKey marks a context whose tool call may reach outside the workspace.
type grantKey struct{}

// withOutsideGrant returns ctx for a call whose access outside the
// workspace was approved (by the user or by the "auto" mode).
func withOutsideGrant(ctx context.Context) context.Context {
	return context.WithValue(ctx, grantKey{}, true)
}

// outsideGranted reports whether ctx carries that approval.
func outsideGranted(ctx context.Context) bool {
	ok, _ := ctx.Value(grantKey{}).(bool)
	return ok
}

// confine resolves p for a call of tool and refuses it — as an error result
// that names the path but never shows its content — when it cannot be
// resolved or leads outside the workspace without approval.
func (w workspace) confine(ctx context.Context, p string) (target, *agent.ToolResult) {
	t, err := w.locate(p)
	if err != nil {
		r := agent.ErrorResult(fmt.Sprintf("cannot resolve %s: %v", shownPath(p), err))
		return t, &r
	}
	if !t.inside && !outsideGranted(ctx) {
		r := agent.ErrorResult(outsideMessage(w, t))
		return t, &r
	}
	return t, nil
}

// outsideMessage says that t leads outside the workspace.
func outsideMessage(w workspace, t target) string {
	where := t.path
	if t.given != t.path {
		where = fmt.Sprintf("%s (which resolves to %s)", shownPath(t.given), t.path)
	}
	return fmt.Sprintf("refused: %s is outside the workspace %s; reaching outside the workspace needs the user's approval",
		where, w.root)
}

// shownPath quotes a path the model gave for a message.
func shownPath(p string) string {
	if p == "" {
		return "the workspace"
	}
	return fmt.Sprintf("%q", p)
}

// access describes a call that touches the path p: the resolved path and
// whether it lies outside. A path that cannot be resolved is listed as
// given; the call itself will fail on it without touching anything.
func (w workspace) access(p string, mutating bool, summary string) Access {
	a := Access{Mutating: mutating, Summary: summary}
	t, err := w.locate(p)
	if err != nil {
		a.Paths = []string{p}
		return a
	}
	a.Paths, a.Outside = []string{t.path}, !t.inside
	return a
}
