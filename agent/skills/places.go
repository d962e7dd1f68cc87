package skills

import "path/filepath"

// Level says whose a skill or template is.
type Level string

// The levels, in the order they are looked at.
const (
	Project Level = "project" // the workspace's
	Global  Level = "global"  // the user's, for every workspace
)

// UserDirs are the user's directories the global skills and templates
// are found under.
type UserDirs struct {
	// Config is steer's global config directory ($XDG_CONFIG_HOME/steer);
	// "" looks in none.
	Config string
	// Home is the home directory, for ~/.agents, ~/.claude and ~/.pi; ""
	// looks in none.
	Home string
}

// Root is a directory skills or templates are looked for in.
type Root struct {
	Dir   string
	Level Level
}

// SkillRoots are the directories skill folders are looked for in, in the
// order a name is taken: the workspace's first (the project's own skill
// of a name overrides the user's), steer's own folder before the shared
// ones. A directory listed twice (the workspace is the home directory) is
// kept once.
func SkillRoots(workspace string, u UserDirs) []Root {
	var roots []Root
	for _, d := range []string{".steer", ".agents", ".claude"} {
		roots = appendRoot(roots, workspace, Project, d, "skills")
	}
	roots = appendRoot(roots, u.Config, Global, "skills")
	roots = appendRoot(roots, u.Home, Global, ".agents", "skills")
	return appendRoot(roots, u.Home, Global, ".claude", "skills")
}

// TemplateRoots are the directories prompt templates are looked for in,
// in the order a name is taken.
func TemplateRoots(workspace string, u UserDirs) []Root {
	roots := appendRoot(nil, workspace, Project, ".steer", "prompts")
	roots = appendRoot(roots, u.Config, Global, "prompts")
	return appendRoot(roots, u.Home, Global, ".pi", "agent", "prompts")
}

// appendRoot appends base/elem… unless base is unset or the directory is
// listed already.
func appendRoot(roots []Root, base string, level Level, elem ...string) []Root {
	if base == "" {
		return roots
	}
	dir := filepath.Join(append([]string{base}, elem...)...)
	for _, r := range roots {
		if r.Dir == dir {
			return roots
		}
	}
	return append(roots, Root{Dir: dir, Level: level})
}

// ReadableDirs are the user's skill directories, whose skills' files the
// read tool reads without asking (tools.WithReadableDirs): the model is
// told to read them. The workspace's are inside it already.
func ReadableDirs(u UserDirs) []string {
	var dirs []string
	for _, r := range SkillRoots("", u) {
		dirs = append(dirs, r.Dir)
	}
	return dirs
}
