package tools

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Context files are the instructions for agents a user and a project keep
// in AGENTS.md (CLAUDE.md where no AGENTS.md is beside it, as Claude Code
// users have them). They are looked for, outermost first:
//
//	global     steer's global config directory ($XDG_CONFIG_HOME/steer)
//	ancestor   every directory above the workspace, from where the walk
//	           stops down to the workspace's parent
//	workspace  the workspace itself
//
// The walk up from the workspace stops at the nearest directory holding
// .git (the repository root, included) or at the home directory (included),
// whichever comes first. A workspace in neither — under /tmp, say — has no
// ancestors read: directories above it may be other people's, and their
// text would reach the model as instructions.
//
// Every later file is more specific than those before it, which is why the
// system prompt carries them in this order (ContextPrompt).

// ContextLevel says where a context file was found.
type ContextLevel string

// The levels, outermost first.
const (
	ContextGlobal    ContextLevel = "global"
	ContextAncestor  ContextLevel = "ancestor"
	ContextWorkspace ContextLevel = "workspace"
)

// The names a context file has, the preferred first: a directory's first
// name present is its context file.
const (
	contextFileName = "AGENTS.md"
	claudeFileName  = "CLAUDE.md"
)

// ContextSources are the directories besides the workspace that bound and
// feed the search; main fills them from the environment.
type ContextSources struct {
	// Global is steer's global config directory; "" for none.
	Global string
	// Home is the user's home directory, where the walk up stops when no
	// repository root comes first; "" for none.
	Home string
}

// contextDir is one directory searched, with the directory a symbolic link
// found in it must stay within ("" for anywhere: the user's own global
// directory): the repository root when repo, else its own path.
type contextDir struct {
	path  string
	level ContextLevel
	bound string
	repo  bool
	// shown is path as a list shows it (contextShown).
	shown string
}

// contextDirs lists the directories searched for workspace, outermost
// first. Paths are absolute with their symbolic links resolved, so that a
// directory reached twice (the global one inside the repository) is
// searched once.
func contextDirs(workspace string, src ContextSources) []contextDir {
	ws := newWorkspace(workspace).root
	var dirs []contextDir
	home := ""
	if src.Home != "" {
		home = newWorkspace(src.Home).root
	}
	global := ""
	if src.Global != "" {
		global = newWorkspace(src.Global).root
		dirs = append(dirs, contextDir{path: global, level: ContextGlobal, shown: contextShown(global, ws, home)})
	}
	chain, repo := walkUp(ws, home)
	for i := len(chain) - 1; i >= 0; i-- {
		d := contextDir{path: chain[i], level: ContextAncestor, bound: repo, repo: repo != "", shown: contextShown(chain[i], ws, home)}
		if i == 0 {
			d.level = ContextWorkspace
		}
		if repo == "" { // no repository: a link may not leave its own directory
			d.bound = d.path
		}
		if d.path == global {
			continue
		}
		dirs = append(dirs, d)
	}
	return dirs
}

// contextShown is dir as a list of context files shows it, short enough
// that a narrow column keeps the file's name: the workspace and its
// ancestors relative to the workspace (".", "..", "../.."), a directory
// under home from "~", any other as it is.
func contextShown(dir, ws, home string) string {
	if within(dir, ws) {
		rel, _ := filepath.Rel(dir, ws) // within: both are absolute, and rel is local
		if rel == "." {
			return rel
		}
		ups := make([]string, strings.Count(rel, string(filepath.Separator))+1)
		for i := range ups {
			ups[i] = ".."
		}
		return filepath.Join(ups...)
	}
	if home != "" && within(home, dir) {
		rel, _ := filepath.Rel(home, dir)
		return filepath.Join("~", rel)
	}
	return dir
}

// walkUp is ws and its ancestors up to where the walk stops (the nearest
// holding .git, or home), innermost first, and the repository root when
// that is where it stopped. Without either, it is ws alone.
func walkUp(ws, home string) (chain []string, repo string) {
	for d := ws; ; {
		chain = append(chain, d)
		if exists(filepath.Join(d, ".git")) {
			return chain, d
		}
		if d == home {
			return chain, ""
		}
		parent := filepath.Dir(d)
		if parent == d {
			return chain[:1], ""
		}
		d = parent
	}
}

// contextCandidate is a context file to read, or a file passed over (why
// says why).
type contextCandidate struct {
	dir  contextDir
	path string
	why  string
}

// shown is the candidate's path as a list shows it (ContextFile.Shown).
func (c contextCandidate) shown() string {
	return filepath.Join(c.dir.shown, filepath.Base(c.path))
}

// contextCandidates are the files of dirs, in order: each directory's
// AGENTS.md, else its CLAUDE.md; a CLAUDE.md beside an AGENTS.md is passed
// over, and listed so, because a user who has both may wonder which won.
func contextCandidates(dirs []contextDir) []contextCandidate {
	var out []contextCandidate
	for _, d := range dirs {
		agents, claude := filepath.Join(d.path, contextFileName), filepath.Join(d.path, claudeFileName)
		switch a, c := exists(agents), exists(claude); {
		case a && c:
			out = append(out, contextCandidate{dir: d, path: agents},
				contextCandidate{dir: d, path: claude, why: contextFileName + " is beside it"})
		case a:
			out = append(out, contextCandidate{dir: d, path: agents})
		case c:
			out = append(out, contextCandidate{dir: d, path: claude})
		}
	}
	return out
}

// exists reports whether anything is at path, a dangling link included
// (reading it then says why it is not used).
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil || !errors.Is(err, fs.ErrNotExist)
}
