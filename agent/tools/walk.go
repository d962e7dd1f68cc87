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
	// The ancestors' .gitignore files apply too, each to its own subtree,
	// and inside an ignored directory everything is ignored, as git has it.
	var ignored ignores
	for i := range rootParts {
		ignored = ignored.with(filepath.Join(base, filepath.Join(rootParts[:i]...)), rootParts[:i])
		if ignored.match(rootParts[:i+1], true) {
			return nil
		}
	}
	err := walkDir(ctx, root, rootParts, nil, ignored, fn)
	if errors.Is(err, errStopWalk) {
		return nil
	}
	return err
}

func walkDir(ctx context.Context, dir string, domain, rel []string, ignored ignores, fn walkFunc) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	ignored = ignored.with(dir, domain)
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

// ignores are the .gitignore files that apply in one directory of a walk:
// its own and its ancestors', outermost first, each scoped to the directory
// (as components from the walk's base) it sits in. The last pattern that
// matches decides, so a deeper file overrides its ancestors. A directory
// without a .gitignore shares its parent's; one with a file gets a matcher
// of its own, so that an entry is matched only against the patterns that
// can apply to it and never against a sibling directory's.
type ignores struct {
	files []ignoreSource
	m     *gitignore.Matcher // nil when there are no files
}

// ignoreSource is one .gitignore file's content and its directory.
type ignoreSource struct {
	data []byte
	dir  string
}

// with returns the ignores of dir (domain from the walk's base), given its
// parent's: ig itself when dir has no .gitignore.
func (ig ignores) with(dir string, domain []string) ignores {
	data, err := os.ReadFile(filepath.Join(dir, ignoreFile))
	if err != nil {
		return ig
	}
	files := append(slices.Clip(ig.files), ignoreSource{data: data, dir: strings.Join(domain, "/")})
	m := &gitignore.Matcher{}
	for _, f := range files {
		m.AddPatterns(f.data, f.dir)
	}
	return ignores{files: files, m: m}
}

// match reports whether the entry at domain is ignored.
func (ig ignores) match(domain []string, isDir bool) bool {
	return ig.m != nil && ig.m.MatchPath(strings.Join(domain, "/"), isDir)
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

// Walk visits everything below dir (in workspace, or the workspace itself)
// as the tools' own walks do (see walk): .git and what the .gitignore files
// from workspace down leave out are skipped, symbolic links are reported
// but never followed, and fn's fs.SkipDir skips a directory; rel is from
// dir. The @-mention finder indexes the workspace with it, so that it
// offers what find and grep would see.
func Walk(ctx context.Context, workspace, dir string, fn func(rel string, d fs.DirEntry) error) error {
	return walk(ctx, workspace, dir, fn)
}
