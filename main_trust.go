package main

import (
	"fmt"
	"io"
	"os"

	"github.com/steer-tui/steer/agent/llm"
	"github.com/steer-tui/steer/agent/llm/scripted"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/config"
	"github.com/steer-tui/steer/agent/runner/headless"
)

// loadConfig is the layered configuration of the working directory
// (config.LoadFiles: global, project, --config) with the workspace's trust:
// the project file applies only once the workspace is trusted. What does
// not stop steer (an unreadable trust record, which trusts nothing) goes to
// stderr.
func loadConfig(o headless.Args, apis llm.APIs, stderr io.Writer) (*config.Config, *runner.WorkspaceGate, error) {
	stateDir, err := config.StateDir(o.StateDir, os.Getenv)
	if err != nil {
		return nil, nil, err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read the working directory: %w", err)
	}
	return loadConfigAt(cwd, stateDir, o, apis, stderr)
}

func loadConfigAt(dir, stateDir string, o headless.Args, apis llm.APIs, stderr io.Writer) (*config.Config, *runner.WorkspaceGate, error) {
	gate, err := runner.CheckWorkspace(dir, stateDir, o.TrustProject)
	if gate == nil {
		return nil, nil, err
	}
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
	}
	st := gate.State()
	cfg, err := config.LoadFiles(config.Files{Project: st.Config, ProjectTrusted: st.Trusted, Explicit: o.Config}, os.Getenv, apis)
	if err != nil {
		return nil, nil, err
	}
	project, _ := config.LoadMCPProject(st.Path) // newMCP says what is wrong with it
	gate.Describe(cfg.Layers, project)
	return cfg, gate, nil
}

// sayUntrusted tells a headless run that the project config was not
// applied, and how to trust it.
func sayUntrusted(cfg *config.Config, stderr io.Writer) {
	for _, l := range cfg.Layers {
		if l.Kind == config.LayerProject && !l.Applied {
			fmt.Fprintf(stderr, "steer: the project config %s was not applied: this workspace is not trusted "+
				"(trust it with 'steer trust', or for this run with --trust-project)\n", l.Path)
		}
	}
}

// configCommand is `steer config [--json]`: the merged configuration with
// each value's sources.
func configCommand(o headless.Args, stdout, stderr io.Writer) int {
	cfg, _, err := loadConfig(o, providerAPIs(scripted.Options{}), stderr)
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	if err := headless.Config(headless.ConfigReport{Layers: cfg.Layers, Settings: cfg.Settings()}, o.JSON, stdout); err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitFailed
	}
	return exitOK
}

// trustCommand is `steer trust [PATH] [--revoke]`: what the workspace
// brings, and its trust recorded or forgotten. A project config with a
// mistake is refused: what it would do cannot be shown.
func trustCommand(o headless.Args, stdout, stderr io.Writer) int {
	stateDir, err := config.StateDir(o.StateDir, os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	dir := "."
	if len(o.Args) == 1 {
		dir = o.Args[0]
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		fmt.Fprintf(stderr, "steer: trust: %s is not a directory\n", dir)
		return exitUsage
	}
	o.TrustProject = false // the record is what counts here
	_, gate, err := loadConfigAt(dir, stateDir, o, providerAPIs(scripted.Options{}), stderr)
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	var done string
	switch {
	case o.Revoke:
		found, err := gate.Revoke()
		if err != nil {
			fmt.Fprintf(stderr, "steer: %v\n", err)
			return exitFailed
		}
		done = "not trusted: it was not"
		if found {
			done = "trust revoked: none of it applies until the workspace is trusted again"
		}
	default:
		if err := gate.Grant(); err != nil {
			fmt.Fprintf(stderr, "steer: %v\n", err)
			return exitFailed
		}
		done = "trusted: it applies from steer's next start, until one of these files changes"
	}
	if err := headless.Trust(gate.State(), done, o.JSON, stdout); err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitFailed
	}
	return exitOK
}
