package tools

import (
	"bufio"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
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
	var patterns []gitignore.Pattern
	for i := range rootParts {
		patterns = append(patterns, readIgnore(filepath.Join(base, filepath.Join(rootParts[:i]...)), rootParts[:i])...)
	}
	err := walkDir(ctx, root, rootParts, nil, patterns, fn)
	if errors.Is(err, errStopWalk) {
		return nil
	}
	return err
}

func walkDir(ctx context.Context, dir string, domain, rel []string, patterns []gitignore.Pattern, fn walkFunc) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	patterns = append(slices.Clip(patterns), readIgnore(dir, domain)...)
	match := gitignore.NewMatcher(patterns)
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
		if len(patterns) > 0 && match.Match(entryDomain, isDir) {
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
			if err := walkDir(ctx, filepath.Join(dir, name), entryDomain, entryRel, patterns, fn); err != nil {
				return err
			}
		}
	}
	return nil
}

// readIgnore parses dir's .gitignore, whose patterns apply below domain
// (dir's path from the walk's base, as components).
func readIgnore(dir string, domain []string) []gitignore.Pattern {
	f, err := os.Open(filepath.Join(dir, ignoreFile))
	if err != nil {
		return nil
	}
	defer f.Close()
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, slices.Clone(domain)))
	}
	return ps
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
