package runner

import (
	"errors"

	"github.com/steer-tui/steer/agent/lsp"
)

// The language-server types front ends use, named here so that they import
// the runner only (see agent/lsp).
type (
	LSPServer = lsp.Status
	LSPState  = lsp.State
)

// The language servers' states, as LSPServer.State says them.
const (
	LSPDisabled   = lsp.StateDisabled
	LSPNotStarted = lsp.StateNotStarted
	LSPStarting   = lsp.StateStarting
	LSPReady      = lsp.StateReady
	LSPFailed     = lsp.StateFailed
	LSPStopped    = lsp.StateStopped
)

var errNoLSP = errors.New("no language servers are configured or found on PATH")

// The language servers are the process's (Options.LSP): the tools of
// every session report their diagnostics, and /lsp shows them. A Host's
// forward to its first runtime's.

// LSPServers are the language servers' states, in configuration order
// (the configured ones, then those detected on PATH); no IO.
func (r *Runtime) LSPServers() []LSPServer { return r.opts.LSP.Servers() }

// RestartLSP stops the server of language and starts it again: a failed
// server stays failed until then.
func (r *Runtime) RestartLSP(language string) error {
	if r.opts.LSP == nil {
		return errNoLSP
	}
	return r.opts.LSP.Restart(language)
}

// LSPServers are the language servers' states (Runtime.LSPServers).
func (h *Host) LSPServers() []LSPServer { return h.first.LSPServers() }

// RestartLSP restarts the server of language (Runtime.RestartLSP).
func (h *Host) RestartLSP(language string) error { return h.first.RestartLSP(language) }
