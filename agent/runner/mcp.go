package runner

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/mcp"
	"github.com/steer-tui/steer/agent/tools"
)

// The MCP types front ends use, named here so that they import the runner
// only (see agent/mcp for each).
type (
	MCPServer           = mcp.Status
	MCPState            = mcp.State
	MCPTool             = mcp.ToolInfo
	MCPPrompt           = mcp.Prompt
	MCPPromptMessage    = mcp.PromptMessage
	MCPResource         = mcp.Resource
	MCPResourceTemplate = mcp.ResourceTemplate
	MCPResourceContent  = mcp.ResourceContent
	MCPElicitation      = mcp.Elicitation
	MCPElicitAnswer     = mcp.ElicitAnswer
	MCPElicitor         = mcp.Elicitor
)

// MCPProject is the workspace's .mcp.json as the trust dialog shows it:
// the file, its hash, what trusting it would run, and whether it is
// trusted already.
type MCPProject struct {
	Path     string   `json:"path"`
	Hash     string   `json:"sha256"`
	Commands []string `json:"commands"`
	Trusted  bool     `json:"trusted"`
}

// mcpDesk is the runtime's part for MCP servers: the process's manager
// (shared by a host's sessions), whose tools it keeps in the session's tool
// set behind the session's approval gate. It calls only what follow gives
// it.
type mcpDesk struct {
	m *mcp.Manager
	// sampling gives a tool call's context the answer to its server's
	// sampling requests (mcp_sampling.go).
	sampling func(ctx context.Context, callID string) context.Context
	// asking hears of each request for input as it reaches the user (the
	// Notification hooks).
	asking func(kind, message string)

	gateMu sync.Mutex
	gate   tools.Gater
	unsub  func()
}

// tools are the ready servers' tools, each saying whether it changes
// anything so that the gate asks for those in ask mode.
func (d *mcpDesk) tools() []agent.Tool {
	if d.m == nil {
		return nil
	}
	var out []agent.Tool
	for _, t := range d.m.Tools() {
		out = append(out, mcpTool{t, d.sampling})
	}
	return out
}

// useGate remembers the gate the session's tool set is behind, for the
// sets made when the servers' tools change.
func (d *mcpDesk) useGate(g tools.Gater) {
	d.gateMu.Lock()
	defer d.gateMu.Unlock()
	d.gate = g
}

func (d *mcpDesk) currentGate() tools.Gater {
	d.gateMu.Lock()
	defer d.gateMu.Unlock()
	return d.gate
}

// follow calls refresh after each change of the servers, until unfollow.
func (d *mcpDesk) follow(refresh func()) {
	if d.m == nil {
		return
	}
	unsub := d.m.Subscribe(refresh)
	d.gateMu.Lock()
	d.unsub = unsub
	d.gateMu.Unlock()
}

func (d *mcpDesk) unfollow() {
	d.gateMu.Lock()
	unsub := d.unsub
	d.unsub = nil
	d.gateMu.Unlock()
	if unsub != nil {
		unsub()
	}
}

// refreshTools gives the agent the servers' tools of the moment, behind
// the session's gate (its "allow for this session" answers kept), from
// the next request on, in a run under way too.
func (r *Runtime) refreshTools() {
	set, err := r.toolSet(r.mcpDesk.currentGate())
	if err != nil {
		r.log.Warn("the MCP tools could not be updated", "error", err)
		return
	}
	r.agent.SetTools(set)
}

// WaitMCP waits until every MCP server is ready or failed (each bounded by
// its timeout), then gives the session their tools: headless runs call it
// before their first request.
func (r *Runtime) WaitMCP(ctx context.Context) error {
	if r.mcpDesk.m == nil {
		return nil
	}
	if err := r.mcpDesk.m.Settled(ctx); err != nil {
		return err
	}
	r.refreshTools()
	return nil
}

// MCPServers are the MCP servers' states, in configuration order.
func (d *mcpDesk) MCPServers() []MCPServer {
	if d.m == nil {
		return nil
	}
	return d.m.Servers()
}

// SubscribeMCP calls fn, on some goroutine, after each change of an MCP
// server (state, tools, prompts, resources).
func (d *mcpDesk) SubscribeMCP(fn func()) (unsubscribe func()) {
	if d.m == nil {
		return func() {}
	}
	return d.m.Subscribe(fn)
}

// MCPServerTools lists a ready server's tools, those its filter leaves out
// among them.
func (d *mcpDesk) MCPServerTools(name string) ([]MCPTool, error) {
	if d.m == nil {
		return nil, errNoMCP
	}
	return d.m.ServerTools(name)
}

// RestartMCP starts a failed server again, or reconnects a running one.
func (d *mcpDesk) RestartMCP(name string) error {
	if d.m == nil {
		return errNoMCP
	}
	return d.m.Restart(name)
}

// LoginMCP runs an HTTP server's OAuth sign-in (the browser flow, /mcp →
// l) and reconnects it; it blocks until the user finished in the browser
// or ctx ends.
func (d *mcpDesk) LoginMCP(ctx context.Context, name string) error {
	if d.m == nil {
		return errNoMCP
	}
	return d.m.Login(ctx, name)
}

// MCPPrompts are the ready servers' prompts (/<server>:<prompt>).
func (d *mcpDesk) MCPPrompts() []MCPPrompt {
	if d.m == nil {
		return nil
	}
	return d.m.Prompts()
}

// GetMCPPrompt expands a server's prompt with its arguments.
func (d *mcpDesk) GetMCPPrompt(ctx context.Context, server, name string, args map[string]string) ([]MCPPromptMessage, error) {
	if d.m == nil {
		return nil, errNoMCP
	}
	return d.m.GetPrompt(ctx, server, name, args)
}

// MCPResources are the ready servers' resources (@<server>:<uri>).
func (d *mcpDesk) MCPResources() []MCPResource {
	if d.m == nil {
		return nil
	}
	return d.m.Resources()
}

// MCPResourceTemplates are the ready servers' resource templates.
func (d *mcpDesk) MCPResourceTemplates() []MCPResourceTemplate {
	if d.m == nil {
		return nil
	}
	return d.m.ResourceTemplates()
}

// ReadMCPResource reads a resource from a server.
func (d *mcpDesk) ReadMCPResource(ctx context.Context, server, uri string) ([]MCPResourceContent, error) {
	if d.m == nil {
		return nil, errNoMCP
	}
	return d.m.ReadResource(ctx, server, uri)
}

// SetMCPElicitor makes fn answer the servers' requests for input (the
// TUI's form dialog); nil declines them, as headless runs do.
func (d *mcpDesk) SetMCPElicitor(fn MCPElicitor) {
	if d.m == nil {
		return
	}
	if inner, asking := fn, d.asking; fn != nil && asking != nil {
		fn = func(ctx context.Context, e MCPElicitation) (MCPElicitAnswer, error) {
			asking("elicitation_dialog", "MCP server "+e.Server+" asks for your input")
			return inner(ctx, e)
		}
	}
	d.m.SetElicitor(fn)
}

// MCPProject is the workspace's .mcp.json for the trust dialog; false when
// there is none.
func (d *mcpDesk) MCPProject() (MCPProject, bool) {
	if d.m == nil || d.m.Project() == nil {
		return MCPProject{}, false
	}
	p := d.m.Project()
	return MCPProject{Path: p.Path, Hash: p.Hash, Commands: p.Commands(), Trusted: d.m.ProjectTrusted()}, true
}

// mcpTool is an MCP tool as the approval gate sees it: it changes things
// unless the server says it is read-only. Its calls can answer their
// server's sampling requests.
type mcpTool struct {
	*mcp.Tool
	sampling func(ctx context.Context, callID string) context.Context
}

func (t mcpTool) Execute(ctx context.Context, callID string, args map[string]any, update agent.ToolUpdate) (agent.ToolResult, error) {
	if t.sampling != nil {
		ctx = t.sampling(ctx, callID)
	}
	return t.Tool.Execute(ctx, callID, args, update)
}

// Describe says what a call does, for the gate and the approval dialog.
func (t mcpTool) Describe(args map[string]any) tools.Access {
	return tools.Access{Tool: t.Spec().Name, Mutating: !t.ReadOnly(),
		Summary: "MCP " + t.Server() + ": " + t.Title() + " " + compactArgs(args)}
}

// compactArgs is a call's arguments as JSON on one short line.
func compactArgs(args map[string]any) string {
	raw, err := json.Marshal(args)
	if err != nil {
		return ""
	}
	if s := string(raw); len(s) <= 120 {
		return s
	}
	return string(raw[:119]) + "…"
}

// errNoMCP answers the MCP calls of a runtime made without servers.
var errNoMCP = errors.New("no MCP servers are configured")

// MCPServers is the MCP part of the facade without a session, for `steer
// mcp list` and `steer mcp tools`.
type MCPServers struct{ *mcpDesk }

// NewMCPServers is the facade's MCP part over m.
func NewMCPServers(m *mcp.Manager) MCPServers { return MCPServers{&mcpDesk{m: m}} }

// Settled waits until every server is ready or failed (each bounded by
// its timeout), or ctx ends.
func (s MCPServers) Settled(ctx context.Context) error {
	if s.m == nil {
		return nil
	}
	return s.m.Settled(ctx)
}
