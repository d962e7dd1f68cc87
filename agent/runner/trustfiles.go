package runner

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/steer-tui/steer/agent/skills"
)

// What else a trust covers, besides the project config and .mcp.json: the
// files those bring along that run or steer the agent — the scripts the
// project config's hooks run, and the workspace's skills (their SKILL.md
// and the scripts beside it). A change to any of them asks again.

// maxSkillFiles bounds the skill files a trust hashes: a workspace that
// brings more is hashed in part (the first, in path order), and a change
// past them goes unseen until the set changes.
const maxSkillFiles = 2000

// projectVars are the variables a hook's command may name the workspace
// by.
var projectVars = []string{"${CLAUDE_PROJECT_DIR}", "$CLAUDE_PROJECT_DIR", "${STEER_PROJECT_DIR}", "$STEER_PROJECT_DIR"}

// hookFiles are the files inside the project (the directory holding
// .steer/) that the commands of the project config's hooks name: the
// scripts they run. An unreadable or malformed config names none (the
// config's own load reports it).
func hookFiles(configPath, workspace string) []string {
	data, err := os.ReadFile(configPath)
	if err != nil {
		return nil
	}
	var c struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if json.Unmarshal(data, &c) != nil {
		return nil
	}
	root := filepath.Dir(filepath.Dir(configPath))
	var out []string
	for _, groups := range c.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				for _, f := range commandFiles(h.Command, workspace, root) {
					if !slices.Contains(out, f) {
						out = append(out, f)
					}
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// commandFiles are the words of command that name a regular file under
// root, relative words read from workspace (where hooks run).
func commandFiles(command, workspace, root string) []string {
	for _, v := range projectVars {
		command = strings.ReplaceAll(command, v, workspace)
	}
	var out []string
	for _, word := range strings.Fields(command) {
		word = strings.Trim(word, `'"`)
		if word == "" || strings.HasPrefix(word, "-") {
			continue
		}
		path := word
		if !filepath.IsAbs(path) {
			path = filepath.Join(workspace, path)
		}
		path = filepath.Clean(path)
		if rel, err := filepath.Rel(root, path); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() {
			out = append(out, path)
		}
	}
	return out
}

// projectSkills are the workspace's skill folders (the ones holding a
// SKILL.md) and the regular files in them, symbolic links not followed.
func projectSkills(workspace string) (folders, files []string) {
	for _, root := range skills.SkillRoots(workspace, skills.UserDirs{}) {
		entries, err := os.ReadDir(root.Dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			dir := filepath.Join(root.Dir, e.Name())
			if _, err := os.Stat(filepath.Join(dir, "SKILL.md")); err != nil {
				continue
			}
			folders = append(folders, dir)
			_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
				switch {
				case err != nil:
					return nil // what cannot be read is not hashed; the skill loader says why
				case len(files) == maxSkillFiles:
					return fs.SkipAll
				case d.Type().IsRegular():
					files = append(files, path)
				}
				return nil
			})
		}
	}
	return folders, files
}
