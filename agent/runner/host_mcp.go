package runner

import (
	"context"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/mcp"
	"github.com/steer-tui/steer/agent/runner/mention"
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
// manager, so these forward to the first runtime's (mcp.go): the servers'
// states for /mcp, and what the composer uses — prompts as slash commands,
// resources as @-mentions.

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

// Attach reads what an input attaches in the current session: the files
// and directories text mentions, the paths beside it and the MCP resources
// it mentions (Runtime.Attach), for Steer's or FollowUp's images.
func (h *Host) Attach(ctx context.Context, text string, paths []string) ([]agent.Content, error) {
	return h.Current().Attach(ctx, text, paths)
}

// MCPPrompts are the ready servers' prompts (/<server>:<prompt>).
func (h *Host) MCPPrompts() []MCPPrompt { return h.first.MCPPrompts() }

// GetMCPPrompt expands a server's prompt with its arguments.
func (h *Host) GetMCPPrompt(ctx context.Context, server, name string, args map[string]string) ([]MCPPromptMessage, error) {
	return h.first.GetMCPPrompt(ctx, server, name, args)
}

// MentionResources are the ready servers' resources and templates for the
// @ finder.
func (h *Host) MentionResources() []mention.Resource { return h.first.MentionResources() }

// ReadMCPResource reads a resource from a server.
func (h *Host) ReadMCPResource(ctx context.Context, server, uri string) ([]MCPResourceContent, error) {
	return h.first.ReadMCPResource(ctx, server, uri)
}
