package main

import (
	"os"
	"path/filepath"

	"github.com/steer-tui/steer/agent/runner/config"
	"github.com/steer-tui/steer/agent/skills"
)

// userDirs are where the user's own skills and prompt templates are found:
// steer's global config directory (beside config.json) and the home
// directory (~/.agents, ~/.claude, ~/.pi). One that cannot be told is left
// out: the workspace's skills still load.
func userDirs() skills.UserDirs {
	var u skills.UserDirs
	if p, err := config.DefaultPath(); err == nil {
		u.Config = filepath.Dir(p)
	}
	if home, err := os.UserHomeDir(); err == nil {
		u.Home = home
	}
	return u
}
