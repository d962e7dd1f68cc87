package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"

	"github.com/steer-tui/steer/agent/llm/scripted"
	"github.com/steer-tui/steer/agent/mcp"
	"github.com/steer-tui/steer/agent/mcp/oauth"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/config"
	"github.com/steer-tui/steer/agent/runner/headless"
)

// newMCP makes and starts the process's MCP servers: the config's, and the
// workspace's .mcp.json when it is trusted: the workspace trust (steer
// trust, the TUI's dialog, --trust-project), else, as before it, the
// config's mcpTrustedProjects or an allowance in the state directory's
// mcp-trust.json.
// What keeps the workspace's servers from starting is said on stderr
// (headless commands) and in the log; it never stops steer.
func newMCP(cfg *config.Config, gate *runner.WorkspaceGate, workspace, stateDir string, o headless.Args, logger *slog.Logger, stderr io.Writer) *mcp.Manager {
	say := func(format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		logger.Warn(msg)
		if o.Command != "" {
			fmt.Fprintf(stderr, "steer: %s\n", msg)
		}
	}
	opts := &mcp.Options{Workspace: workspace, HiddenEnv: cfg.SecretEnvNames(), Logger: logger, Version: steerVersion(),
		OAuthStore: oauth.NewStore(filepath.Join(stateDir, mcpTokenDir)), AutoLogin: os.Getenv("BROWSER") != ""}
	project, err := config.LoadMCPProject(workspace)
	if err != nil {
		say("the workspace's MCP servers were not started: %v", err)
	}
	trusted := gate.Trusted()
	if project != nil && !trusted {
		trusted = slices.Contains(cfg.MCPTrustedProjects, mcp.Allowance{Path: project.Path, SHA256: project.Hash})
		if !trusted {
			var terr error
			trusted, terr = mcp.NewTrustStore(stateDir).Trusted(project.Path, project.Hash)
			if terr != nil {
				say("%v", terr)
			}
		}
		if !trusted && o.Command != "" && o.Command != "mcp" {
			say("%s is not trusted: its servers were not started (trust the workspace with 'steer trust', or for this run with --trust-project)", project.Path)
		}
	}
	m := mcp.New(cfg.MCPServers, project, trusted, opts)
	if o.Command != "mcp" || o.Args[0] != "login" { // a login starts the one server itself
		m.Start()
	}
	return m
}

// mcpTokenDir is where in the state directory the MCP servers' OAuth
// tokens are kept.
const mcpTokenDir = "mcp-oauth"

// steerVersion is the version sent to MCP servers in initialize.
func steerVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "dev"
}

// mcpCommand is `steer mcp list|tools`: the servers started as a session
// would start them, reported once settled, then closed.
func mcpCommand(ctx context.Context, o headless.Args, stdout, stderr io.Writer) int {
	cfg, gate, err := loadConfig(o, providerAPIs(scripted.Options{}), stderr)
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	stateDir, err := config.StateDir(o.StateDir, os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	workspace, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "steer: cannot read the working directory: %v\n", err)
		return exitUsage
	}
	level, err := runner.LogLevel(os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	logger, closeLog, err := runner.OpenLog(stateDir, level)
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	defer closeLog()
	m := newMCP(cfg, gate, workspace, stateDir, o, logger, stderr)
	defer m.Close()
	if o.Args[0] == "login" {
		if err := m.Login(ctx, o.Args[1]); err != nil {
			fmt.Fprintf(stderr, "steer: %v\n", err)
			return exitFailed
		}
		fmt.Fprintf(stdout, "signed in to %s\n", o.Args[1])
		return exitOK
	}
	return headless.MCP(ctx, runner.NewMCPServers(m), headless.MCPOptions{Args: o.Args, JSON: o.JSON}, stdout, stderr)
}
