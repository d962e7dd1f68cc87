package checkpoint

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// stage brings the session's index up to the work tree (what changed since
// the last snapshot is added, what is gone removed, what is over the cap
// kept out) and returns its tree and what is left out.
func (s *Store) stage(ctx context.Context, g shadow) (string, []LeftOut, error) {
	if err := s.syncExcludes(); err != nil {
		return "", nil, err
	}
	// The ignored files are listed beside the staging and the tree, on a
	// walk of their own: what is ignored does not depend on the index.
	type listing struct {
		out []byte
		err error
	}
	ignored := make(chan listing, 1)
	go func() {
		out, err := g.run(ctx, nil, "ls-files", "-z", "-o", "-i", "--exclude-standard", "--directory")
		ignored <- listing{out, err}
	}()
	left, err := s.stageChanges(ctx, g)
	var tree string
	if err == nil {
		tree, err = g.line(ctx, nil, "write-tree")
	}
	ign := <-ignored
	if err != nil {
		return "", nil, err
	}
	if ign.err != nil {
		return "", nil, ign.err
	}
	for _, p := range nulSplit(ign.out) {
		left = append(left, LeftOut{Path: p, Why: LeftIgnored})
	}
	sort.Slice(left, func(i, j int) bool { return left[i].Path < left[j].Path })
	return tree, left, nil
}

// ls-files -t puts a tag of two characters before each path: "? " an
// untracked file, "C " a tracked one changed or gone.
const (
	tagLen      = 2
	tagModified = "C "
)

// stageChanges adds to the index what changed and removes what is gone or
// over the cap, which it returns as left out.
func (s *Store) stageChanges(ctx context.Context, g shadow) ([]LeftOut, error) {
	// One run lists both the untracked files (a walk of the tree) and the
	// modified and deleted ones (a stat of every entry): each git run
	// costs a start and a read of the whole index.
	out, err := g.run(ctx, nil, "ls-files", "-z", "-t", "-o", "-m", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	var add, drop []string
	var left []LeftOut
	for _, f := range nulSplit(out) {
		if len(f) <= tagLen {
			continue
		}
		tag, p := f[:tagLen], f[tagLen:]
		fi, err := os.Lstat(filepath.Join(s.workspace, filepath.FromSlash(p)))
		switch {
		case err == nil && fi.Mode().IsRegular() && fi.Size() > s.maxSize:
			left = append(left, LeftOut{Path: p, Why: LeftOverSize})
			if tag == tagModified {
				drop = append(drop, p) // an untracked one is not in the index
			}
		default:
			add = append(add, p)
		}
	}
	if len(drop) > 0 {
		if _, err := g.run(ctx, nulJoin(drop), "update-index", "-z", "--force-remove", "--stdin"); err != nil {
			return nil, err
		}
	}
	if len(add) > 0 {
		// update-index takes the listed paths alone: add would refresh
		// the whole index again, a second pass over every file.
		if _, err := g.run(ctx, nulJoin(add), "update-index", "-z", "--add", "--remove", "--stdin"); err != nil {
			return nil, err
		}
	}
	return left, nil
}

// syncExcludes makes the shadow's info/exclude what the user excludes in
// their repository's .git/info/exclude, and leaves out the user's .git and
// the state directory's checkpoints themselves.
func (s *Store) syncExcludes() error {
	want := "/.git\n"
	if rel, err := filepath.Rel(s.workspace, filepath.Dir(filepath.Dir(s.dir))); err == nil && !strings.HasPrefix(rel, "..") && rel != "." {
		want += "/" + filepath.ToSlash(rel) + "/\n"
	}
	if b, err := os.ReadFile(filepath.Join(s.workspace, ".git", "info", "exclude")); err == nil {
		want += string(b)
	}
	path := filepath.Join(s.dir, "info", "exclude")
	if have, err := os.ReadFile(path); err == nil && string(have) == want {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(want), 0o600)
}
