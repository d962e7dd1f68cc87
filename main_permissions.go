package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/config"
	"github.com/steer-tui/steer/agent/tools/permissions"
	"github.com/steer-tui/steer/agent/tools/sandbox"
)

// rulebookFor is the process's permission rules: the config's, resolved in
// the workspace, with the protected paths (the repository's .git, steer's
// config and state directories, the files a workspace trust covers), whose
// writes always ask.
func rulebookFor(cfg *config.Config, gate *runner.WorkspaceGate, workspace, stateDir string, protections []string) (*runner.Rulebook, error) {
	ws := canonical(workspace)
	home, _ := os.UserHomeDir()
	global, _ := config.DefaultPath()
	protected := []string{canonical(stateDir)}
	if dir, err := config.Dir(); err == nil {
		protected = append(protected, canonical(dir))
	}
	if git := gitDirOf(ws); git != "" {
		protected = append(protected, git)
	}
	project := filepath.Join(ws, config.ProjectFile)
	if gate != nil {
		protected = append(protected, gate.Files()...)
		if st := gate.State(); st.Config != "" {
			project = st.Config
		}
	}
	return runner.NewRulebook(runner.RulebookSetup{
		Rules:       cfg.Permissions,
		Env:         permissions.Env{Workspace: ws, Home: home, Protected: protected},
		Global:      global,
		Project:     project,
		Trust:       gate,
		Protections: protections,
	})
}

// canonical is p absolute with symbolic links resolved where it exists.
func canonical(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	return p
}

// gitDirOf is the .git of the repository holding dir, "" outside one.
func gitDirOf(dir string) string {
	for {
		p := filepath.Join(dir, ".git")
		if _, err := os.Lstat(p); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// sandboxPolicy is tools.sandbox as the bash tool enforces it (config has
// checked its values).
func sandboxPolicy(cfg *config.Config) sandbox.Policy {
	s := cfg.Tools.Sandbox
	mode, _ := sandbox.ParseMode(s.Mode)
	network, _ := sandbox.ParseNetwork(s.Network)
	return sandbox.Policy{Mode: mode, Network: network, Writable: s.Writable}
}

// sandboxProtections say which protections tools.sandbox has on this
// machine, for /permissions.
//
// Detect starts a probe process: with the sandbox off there is nothing to
// probe for, and start-up runs none.
func sandboxProtections(cfg *config.Config) []string {
	p := sandboxPolicy(cfg)
	if !p.Enabled() {
		return sandbox.Support{}.Describe(p)
	}
	return sandbox.Detect().Describe(p)
}

// sandboxProblem says, once at start-up, that tools.sandbox asks for more
// than this kernel can enforce (bash then refuses every command); "" when
// it can, or when the sandbox is off.
func sandboxProblem(cfg *config.Config) string {
	p := sandboxPolicy(cfg)
	if !p.Enabled() {
		return ""
	}
	if err := sandbox.Detect().Check(p); err != nil {
		return fmt.Sprintf("tools.sandbox is %s but %v: bash refuses every command", cfg.Tools.Sandbox, err)
	}
	return ""
}
