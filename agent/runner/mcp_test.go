package runner

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/mcp"
	"github.com/steer-tui/steer/agent/mcp/mcptest"
	"github.com/steer-tui/steer/agent/tools"
)

// settledMCP is a started manager of the test server over streamable HTTP,
// named srv.
func settledMCP(t *testing.T) *mcp.Manager {
	t.Helper()
	srv := mcptest.NewServer(nil)
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(ts.Close)
	m := mcp.New([]mcp.Config{{Name: "srv", Transport: mcp.TransportHTTP, URL: ts.URL}}, nil, false, nil)
	t.Cleanup(m.Close)
	m.Start()
	return m
}

// TestMCPToolsInTheRun: once WaitMCP returns, the servers' tools are in
// the model's tool list; in ask mode a read-only tool runs unasked and a
// tool that may change things asks (refused here, nobody can answer).
func TestMCPToolsInTheRun(t *testing.T) {
	m := settledMCP(t)
	script := agenttest.NewScript(
		agenttest.Reply().ToolCall("c1", "mcp__srv__echo", `{"text":"from the server"}`).
			ToolCall("c2", "mcp__srv__fail", `{}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text("done").Stop(agent.StopReasonStop))
	rt := newRuntime(t, nil, script, Options{MCP: m, Approval: tools.ModeAsk})
	if err := rt.WaitMCP(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := rt.MCPServers(); len(st) != 1 || st[0].State != mcp.StateReady {
		t.Fatalf("servers: %+v", st)
	}
	if err := rt.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	reqs := script.Requests()
	names := make([]string, len(reqs[0].Tools))
	for i, s := range reqs[0].Tools {
		names[i] = s.Name
	}
	if !slices.Contains(names, "mcp__srv__echo") || !slices.Contains(names, "task") {
		t.Fatalf("tools offered: %v", names)
	}
	results := map[string]agent.Message{}
	for _, msg := range rt.State().Messages {
		if msg.Role == agent.RoleToolResult {
			results[msg.ToolName] = msg
		}
	}
	if r := results["mcp__srv__echo"]; r.IsError || r.Content[0].Text != "from the server" {
		t.Errorf("echo: %+v", r)
	}
	if r := results["mcp__srv__fail"]; !r.IsError || !strings.Contains(r.Content[0].Text, "--approve auto") {
		t.Errorf("a mutating MCP tool in ask mode with nobody to answer: %+v", r)
	}
}

// TestMCPApprovalAccess: the gate sees an MCP tool as mutating unless its
// annotations say readOnlyHint.
func TestMCPApprovalAccess(t *testing.T) {
	m := settledMCP(t)
	if err := m.Settled(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := map[string]tools.Verdict{"mcp__srv__echo": tools.Run, "mcp__srv__fail": tools.Ask, "mcp__srv__slow": tools.Ask}
	for _, tl := range m.Tools() {
		v, ok := want[tl.Spec().Name]
		if !ok {
			continue
		}
		if got := tools.Decide(tools.ModeAsk, mcpTool{Tool: tl}.Describe(nil)); got != v {
			t.Errorf("%s in ask mode: %s, want %s", tl.Spec().Name, got, v)
		}
		delete(want, tl.Spec().Name)
	}
	if len(want) > 0 {
		t.Errorf("tools not offered: %v", want)
	}
}
