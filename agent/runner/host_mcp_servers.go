package runner

import (
	"context"

	"github.com/steer-tui/steer/agent/mcp"
)

// The actions of an MCP elicitation's answer (MCPElicitAnswer.Action), as
// the MCP specification means them: accept with the content, decline when
// the user said no, cancel when the user dismissed the request.
const (
	MCPElicitAccept  = mcp.ElicitAccept
	MCPElicitDecline = mcp.ElicitDecline
	MCPElicitCancel  = mcp.ElicitCancel
)

// The MCP servers' states, as MCPServer.State says them.
const (
	MCPStarting   = mcp.StateStarting
	MCPReady      = mcp.StateReady
	MCPFailed     = mcp.StateFailed
	MCPNeedsLogin = mcp.StateNeedsLogin
	MCPUntrusted  = mcp.StateUntrusted
	MCPDisabled   = mcp.StateDisabled
)

// The host's MCP servers are the process's: every session shares the one
// manager, so these forward to the first runtime's (mcp.go).

// MCPServers are the MCP servers' states, in configuration order.
func (h *Host) MCPServers() []MCPServer { return h.first.MCPServers() }

// SubscribeMCP calls fn, on some goroutine, after each change of an MCP
// server.
func (h *Host) SubscribeMCP(fn func()) (unsubscribe func()) { return h.first.SubscribeMCP(fn) }

// MCPServerTools lists a ready server's tools.
func (h *Host) MCPServerTools(name string) ([]MCPTool, error) { return h.first.MCPServerTools(name) }

// RestartMCP starts a failed server again, or reconnects a running one.
func (h *Host) RestartMCP(name string) error { return h.first.RestartMCP(name) }

// LoginMCP runs an HTTP server's OAuth sign-in in the browser and
// reconnects it; it blocks until the user finished or ctx ends.
func (h *Host) LoginMCP(ctx context.Context, name string) error { return h.first.LoginMCP(ctx, name) }

// SetMCPElicitor makes fn answer the servers' requests for input; nil
// declines them.
func (h *Host) SetMCPElicitor(fn MCPElicitor) { h.first.SetMCPElicitor(fn) }

// MCPProject is the workspace's .mcp.json for the trust dialog; false
// when there is none.
func (h *Host) MCPProject() (MCPProject, bool) { return h.first.MCPProject() }

// TrustMCPProject trusts the workspace's .mcp.json as it is now and starts
// its servers.
func (h *Host) TrustMCPProject() error { return h.first.TrustMCPProject() }

// Where an MCP server is configured, and how it is reached.
type (
	MCPSource    = mcp.Source
	MCPTransport = mcp.Transport
)

// The sources and transports of MCP servers.
const (
	MCPFromConfig  = mcp.SourceConfig
	MCPFromProject = mcp.SourceProject
	MCPStdio       = mcp.TransportStdio
)
