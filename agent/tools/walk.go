package tools

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/git-pkgs/gitignore"
)

// errStopWalk ends a walk early without an error (a limit was reached).
var errStopWalk = errors.New("stop walking")

// ignoreFile is the file whose patterns a walk leaves out.
const ignoreFile = ".gitignore"

// walkFunc is called for each entry a walk visits, with its path relative to
// the walk's root (slash-separated). Returning fs.SkipDir for a directory
// skips its contents; errStopWalk ends the walk.
type walkFunc func(rel string, d fs.DirEntry) error

// walk visits everything below root (a resolved directory) depth first, in
// lexical order, as git would list it: .git directories and whatever the
// .gitignore files of base (the workspace root, when root lies inside it)
// down to each directory ignore are left out, and symbolic links are
// reported but never followed, so a walk cannot leave the tree it started
// in. Unreadable directories are skipped.
func walk(ctx context.Context, base, root string, fn walkFunc) error {
	if !within(base, root) {
		base = root
	}
	rootParts := splitPath(mustRel(base, root))
	// The ancestors' .gitignore files apply too, each to its own subtree.
	var ignored ignores
	for i := range rootParts {
		ignored.add(filepath.Join(base, filepath.Join(rootParts[:i]...)), rootParts[:i])
	}
	err := walkDir(ctx, root, rootParts, nil, &ignored, fn)
	if errors.Is(err, errStopWalk) {
		return nil
	}
	return err
}

func walkDir(ctx context.Context, dir string, domain, rel []string, ignored *ignores, fn walkFunc) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	ignored.add(dir, domain)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil // unreadable: nothing to list, as git would say
	}
	for _, e := range entries {
		name := e.Name()
		isDir := e.IsDir() // false for a symlink, which is never entered
		if isDir && name == ".git" {
			continue
		}
		entryDomain := append(slices.Clip(domain), name)
		if ignored.match(entryDomain, isDir) {
			continue
		}
		entryRel := append(slices.Clip(rel), name)
		err := fn(strings.Join(entryRel, "/"), e)
		switch {
		case isDir && errors.Is(err, fs.SkipDir):
			continue
		case err != nil:
			return err
		}
		if isDir {
			if err := walkDir(ctx, filepath.Join(dir, name), entryDomain, entryRel, ignored, fn); err != nil {
				return err
			}
		}
	}
	return nil
}

// ignores holds the .gitignore patterns a walk has met so far, each scoped
// to the directory (as components from the walk's base) whose file it came
// from. The last pattern that matches decides, so a deeper file overrides
// its ancestors; a sibling's patterns never match outside its directory.
type ignores struct {
	m   gitignore.Matcher
	any bool
}

// add reads dir's .gitignore, if it has one, whose patterns apply below
// domain (dir's path from the walk's base).
func (ig *ignores) add(dir string, domain []string) {
	data, err := os.ReadFile(filepath.Join(dir, ignoreFile))
	if err != nil {
		return
	}
	ig.m.AddPatterns(data, strings.Join(domain, "/"))
	ig.any = true
}

// match reports whether the entry at domain (its path from the walk's base)
// is ignored.
func (ig *ignores) match(domain []string, isDir bool) bool {
	return ig.any && ig.m.MatchPath(strings.Join(domain, "/"), isDir)
}

// mustRel is filepath.Rel for a path known to lie within base.
func mustRel(base, path string) string {
	rel, err := filepath.Rel(base, path)
	if err != nil {
		return "."
	}
	return rel
}

// globMatcher matches the walk's entries against a glob: one with a "/"
// against the path from the walk's root, one without against the name
// alone, at any depth — as .gitignore patterns and ripgrep's --glob do.
type globMatcher struct {
	pattern string
	full    bool
}

// newGlob checks pattern's syntax (doublestar: *, **, ?, [class], {a,b}).
func newGlob(pattern string) (globMatcher, bool) {
	pattern = strings.TrimPrefix(pattern, "./")
	if !doublestar.ValidatePattern(pattern) {
		return globMatcher{}, false
	}
	return globMatcher{pattern: pattern, full: strings.Contains(pattern, "/")}, true
}

func (g globMatcher) match(rel string) bool {
	name := rel
	if !g.full {
		name = rel[strings.LastIndexByte(rel, '/')+1:]
	}
	ok, _ := doublestar.Match(g.pattern, name)
	return ok
}
