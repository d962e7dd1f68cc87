package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/steer-tui/steer/agent"
)

// The read tool may also read, without an outside-the-workspace approval,
// the files of the folders below a few known read-only directories: the
// user's skill folders (~/.claude/skills/<name>/…), whose SKILL.md and
// references the model is told to read. Only reading: write, edit and bash
// treat them as any other place outside.
//
// A path is readable when, as written (made absolute and clean, before any
// link is followed), it lies in a folder <dir>/<name> of one of the
// directories that holds a SKILL.md, and where it leads, links followed,
// lies in that folder's own resolved place. A skill folder that is a link to a dotfiles checkout
// thus works, while a link inside it that leads anywhere else does not,
// and neither does <dir> itself nor anything reached by "..".

// WithReadableDirs lets the read tool read the files of the folders below
// dirs (see above); give it the user's skill directories
// (skills.ReadableDirs), not the workspace's: what a link in the workspace
// leads to outside it stays refused.
func WithReadableDirs(dirs ...string) Option {
	return func(o *options) { o.readable = append(o.readable, dirs...) }
}

// readableDirs are the directories of WithReadableDirs, absolute and clean.
type readableDirs []string

func readableOf(dirs []string) readableDirs {
	out := make(readableDirs, 0, len(dirs))
	for _, d := range dirs {
		if abs, err := filepath.Abs(d); err == nil {
			out = append(out, abs)
		}
	}
	return out
}

// allows reports whether t, given as it was, may be read.
func (r readableDirs) allows(w workspace, t target) bool {
	if len(r) == 0 || t.path == "" {
		return false
	}
	given := t.given
	if !filepath.IsAbs(given) {
		given = filepath.Join(w.root, given)
	}
	given = filepath.Clean(given)
	for _, dir := range r {
		rel, err := filepath.Rel(dir, given)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		folder := filepath.Join(dir, strings.Split(rel, string(filepath.Separator))[0])
		if info, err := os.Stat(filepath.Join(folder, "SKILL.md")); err != nil || !info.Mode().IsRegular() {
			continue
		}
		real, err := resolveReal(folder)
		if err == nil && within(real, t.path) {
			return true
		}
	}
	return false
}

// confineRead is confine for a read: a readable path counts as inside.
func (w workspace) confineRead(ctx context.Context, r readableDirs, p string) (target, *agent.ToolResult) {
	t, refused := w.confine(ctx, p)
	if refused != nil && t.path != "" && r.allows(w, t) {
		return t, nil
	}
	return t, refused
}

// accessRead is access for a read: a readable path is not outside.
func (w workspace) accessRead(r readableDirs, p, summary string) Access {
	a := w.access(p, false, summary)
	if a.Outside {
		if t, err := w.locate(p); err == nil && r.allows(w, t) {
			a.Outside = false
		}
	}
	return a
}
