package main

import (
	"os"
	"path/filepath"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/config"
	"github.com/steer-tui/steer/agent/tools"
)

// contextSources are where context files are looked for besides the
// workspace: steer's global config directory (the global config file's),
// and the home directory, where the walk up from the workspace ends when
// no repository root comes first. One that cannot be found is left out.
func contextSources() *tools.ContextSources {
	var src tools.ContextSources
	if p, err := config.DefaultPath(); err == nil {
		src.Global = filepath.Dir(p)
	}
	if home, err := os.UserHomeDir(); err == nil {
		src.Home = home
	}
	return &src
}

// contextFilesHere is `steer inspect memory`'s way to the context files: of
// the current directory, as a session started there finds them.
func contextFilesHere() ([]runner.ContextFileView, error) {
	workspace, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	return runner.ReadContextFiles(workspace, *contextSources()), nil
}
