package main

import (
	"log/slog"
	"os"
	"os/exec"
	"slices"

	"github.com/steer-tui/steer/agent/lsp"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/config"
	"github.com/steer-tui/steer/agent/tools"
)

// newLSP makes the process's language servers, rooted at workspace: the
// config's lsp and the defaults found on PATH. It starts none (a server
// starts for the first file of its filetypes); nil when there is none to
// start, so that the tools offer no diagnostics tool.
func newLSP(cfg *config.Config, workspace string, logger *slog.Logger) (*lsp.Manager, error) {
	servers, err := lsp.Resolve(cfg.LSP, exec.LookPath)
	if err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(servers, func(c lsp.Config) bool { return !c.Disabled }) {
		return nil, nil
	}
	return lsp.New(lsp.Options{Workspace: workspace, Servers: servers, Env: tools.CommandEnv(os.Environ(), cfg.SecretEnvNames()),
		Logger: logger}), nil
}


// diagnosticsFor gives the tools of workspace the language servers' m
// diagnostics; none when there are no servers, or the tools are rooted
// elsewhere than the servers.
func diagnosticsFor(m *lsp.Manager, ws, workspace string) []tools.Option {
	if m == nil || ws != workspace {
		return nil
	}
	return []tools.Option{tools.WithDiagnostics(m)}
}

// lspSnapshot is `steer inspect lsp`'s view: the servers a session here
// would have, none started.
func lspSnapshot(cfg *config.Config) func() ([]runner.LSPServer, error) {
	return func() ([]runner.LSPServer, error) {
		servers, err := lsp.Resolve(cfg.LSP, exec.LookPath)
		if err != nil {
			return nil, err
		}
		return lsp.New(lsp.Options{Servers: servers}).Servers(), nil
	}
}
