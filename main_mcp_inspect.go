package main

import (
	"context"
	"io"
	"os"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/config"
	"github.com/steer-tui/steer/agent/runner/headless"
)

// mcpSnapshot is `steer inspect mcp`'s way to the servers: started as a
// session would start them (the workspace's only when trusted), reported
// once each is ready or failed, then closed, as `steer mcp list` does.
func mcpSnapshot(cfg *config.Config, gate *runner.WorkspaceGate, stateDir string, o headless.Args, stderr io.Writer) func(context.Context) ([]runner.MCPServer, error) {
	return func(ctx context.Context) ([]runner.MCPServer, error) {
		level, err := runner.LogLevel(os.Getenv)
		if err != nil {
			return nil, err
		}
		logger, closeLog, err := runner.OpenLog(stateDir, level)
		if err != nil {
			return nil, err
		}
		defer closeLog()
		workspace, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		m := newMCP(cfg, gate, workspace, stateDir, o, logger, stderr)
		defer m.Close()
		servers := runner.NewMCPServers(m)
		if err := servers.Settled(ctx); err != nil {
			return nil, err
		}
		return servers.MCPServers(), nil
	}
}
