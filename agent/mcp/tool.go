package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/steer-tui/steer/agent"
)

// ToolPrefix starts the name of every MCP tool: mcp__<server>__<tool>.
const ToolPrefix = "mcp__"

// ToolName is the name the model calls a server's tool by; characters the
// providers refuse in a tool name become '_'.
func ToolName(server, tool string) string {
	return ToolPrefix + server + "__" + sanitize(tool)
}

func sanitize(name string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, name)
}

// Tool is one server's tool as an agent.Tool. It calls the server's
// current session, so it outlives reconnects; a call while the server is
// not ready is an error result saying why.
type Tool struct {
	srv  *server
	def  *sdk.Tool
	spec agent.ToolSpec

	outOnce sync.Once // the outputSchema, resolved on first use (output.go)
	out     *jsonschema.Resolved
	outErr  error
}

// Tools are the tools of every ready server that their filters admit, in
// configuration order; a name two tools would share goes to the first.
func (m *Manager) Tools() []*Tool {
	m.mu.Lock()
	servers := append([]*server(nil), m.servers...)
	m.mu.Unlock()
	var out []*Tool
	seen := map[string]bool{}
	for _, s := range servers {
		s.mu.Lock()
		var defs []*sdk.Tool
		if s.state == StateReady {
			defs = s.admitted()
		}
		s.mu.Unlock()
		for _, d := range defs {
			t := newTool(s, d)
			if seen[t.spec.Name] {
				continue
			}
			seen[t.spec.Name] = true
			out = append(out, t)
		}
	}
	return out
}

func newTool(s *server, d *sdk.Tool) *Tool {
	schema, err := json.Marshal(d.InputSchema)
	if err != nil || string(schema) == "null" {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	return &Tool{srv: s, def: d, spec: agent.ToolSpec{Name: ToolName(s.cfg.Name, d.Name), Description: d.Description, Parameters: schema}}
}

// Spec is the tool as the model sees it: its input schema as the server
// gave it.
func (t *Tool) Spec() agent.ToolSpec { return t.spec }

// Server and Name are the server's name and the tool's MCP name.
func (t *Tool) Server() string { return t.srv.cfg.Name }

// Name is the tool's name on its server.
func (t *Tool) Name() string { return t.def.Name }

// ReadOnly reports whether the server says the tool changes nothing
// (annotations.readOnlyHint): only then may it run unasked in ask mode.
func (t *Tool) ReadOnly() bool { return t.def.Annotations != nil && t.def.Annotations.ReadOnlyHint }

// Title is the tool's display name, its name when it has none.
func (t *Tool) Title() string {
	switch {
	case t.def.Title != "":
		return t.def.Title
	case t.def.Annotations != nil && t.def.Annotations.Title != "":
		return t.def.Annotations.Title
	}
	return t.def.Name
}

// Execute calls the tool. Progress notifications become the call's live
// output; cancelling ctx (an abort), the server's silence past its call
// timeout, or its hanging (watchdog.go), makes the SDK send
// notifications/cancelled and return at once.
func (t *Tool) Execute(ctx context.Context, callID string, args map[string]any, update agent.ToolUpdate) (agent.ToolResult, error) {
	cs, err := t.srv.ready()
	if err != nil {
		return agent.ErrorResult(err.Error()), nil
	}
	l := t.srv.currentLink()
	params := &sdk.CallToolParams{Name: t.def.Name, Arguments: args}
	token := "steer-" + callID
	params.SetProgressToken(token)
	callCtx, touch, cancel, stop := t.srv.callBound(ctx)
	defer stop()
	t.srv.mu.Lock()
	t.srv.progress[token] = func(p *sdk.ProgressNotificationParams) {
		touch()
		if update != nil {
			update(agent.TextResult(progressText(p)))
		}
	}
	t.srv.mu.Unlock()
	defer func() {
		t.srv.mu.Lock()
		delete(t.srv.progress, token)
		t.srv.mu.Unlock()
	}()
	defer t.srv.track(token, ctx, cancel)()
	res, err := cs.CallTool(callCtx, params)
	switch {
	case ctx.Err() != nil:
		return agent.ErrorResult("[aborted]"), nil
	case callCtx.Err() != nil:
		return agent.ErrorResult(fmt.Sprintf("mcp server %s: %v", t.srv.cfg.Name, context.Cause(callCtx))), nil
	case err != nil && l != nil && l.sessionGone():
		return agent.ErrorResult(fmt.Sprintf("mcp server %s: %v; the call did not run: call it again", t.srv.cfg.Name, errSessionGone)), nil
	case err != nil:
		return agent.ErrorResult(fmt.Sprintf("mcp server %s: %s", t.srv.cfg.Name, t.srv.redacted(err))), nil
	}
	return t.checkOutput(res), nil
}

// progressText is a progress notification as live output.
func progressText(p *sdk.ProgressNotificationParams) string {
	s := fmt.Sprintf("progress %g", p.Progress)
	if p.Total > 0 {
		s = fmt.Sprintf("progress %g/%g", p.Progress, p.Total)
	}
	if p.Message != "" {
		s += ": " + p.Message
	}
	return s
}

// ToolInfo is a server's tool as `steer mcp tools` lists it.
type ToolInfo struct {
	// Name is what the model calls it (mcp__server__tool); MCPName is its
	// name on the server.
	Name        string          `json:"name"`
	MCPName     string          `json:"mcpName"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	ReadOnly    bool            `json:"readOnly"`
	Allowed     bool            `json:"allowed"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// ServerTools lists every tool a server offers, with whether its filter
// admits it; an error when the server is unknown or not ready.
func (m *Manager) ServerTools(name string) ([]ToolInfo, error) {
	s, err := m.server(name)
	if err != nil {
		return nil, err
	}
	if _, err := s.ready(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defs := append([]*sdk.Tool(nil), s.lists.tools...)
	s.mu.Unlock()
	out := make([]ToolInfo, len(defs))
	for i, d := range defs {
		t := newTool(s, d)
		out[i] = ToolInfo{Name: t.spec.Name, MCPName: d.Name, Title: t.Title(), Description: d.Description,
			ReadOnly: t.ReadOnly(), Allowed: s.cfg.Tools.Admits(d.Name), InputSchema: t.spec.Parameters}
	}
	return out, nil
}
