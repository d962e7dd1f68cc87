package tui

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/mcp"
	"github.com/steer-tui/steer/agent/mcp/mcptest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/config"
	"github.com/steer-tui/steer/agent/tools"
)

// The TUI reaches MCP only through the runner's facade; these tests make
// the runtime's manager with a real server (the SDK's, in process, over
// streamable HTTP) as main does.

// mcpRuntime is a real host whose provider plays responses, with the test
// MCP server as srv (settled) and, when project is set, the workspace's
// .mcp.json, not trusted yet.
func mcpRuntime(t *testing.T, project *mcp.Project, responses ...*agenttest.Response) *runner.Host {
	t.Helper()
	srv := mcptest.NewServer(nil)
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(ts.Close)
	m := mcp.New([]mcp.Config{{Name: "srv", Transport: mcp.TransportHTTP, URL: ts.URL}}, project, false, &mcp.Options{})
	t.Cleanup(m.Close)
	m.Start()
	var gate *runner.WorkspaceGate
	if project != nil {
		var err error
		if gate, err = runner.CheckWorkspace(filepath.Dir(project.Path), t.TempDir(), false); err != nil {
			t.Fatal(err)
		}
		gate.Describe(nil, project)
	}
	script := agenttest.NewScript(responses...)
	rt, err := runner.New(context.Background(), runner.Options{
		Providers: []runner.Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: script.Stream}},
		Now:       agenttest.Clock, MCP: m, Trust: gate, Approval: tools.ModeAuto,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := rt.WaitMCP(context.Background()); err != nil {
		t.Fatal(err)
	}
	h := runner.NewHost(rt)
	t.Cleanup(func() {
		h.AbortWith(runner.AbortQuit)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = h.WaitForIdle(ctx)
	})
	return h
}

// TestGoldenMCPInspector: /mcp lists the server with its counts; r
// restarts it and l signs in to it, through the runtime.
func TestGoldenMCPInspector(t *testing.T) {
	rt := mcpRuntime(t, nil)
	h := newHarness(t, rt, 100, 24)
	h.typeText("/mcp")
	h.key(tea.KeyEnter, false)
	h.waitView("MCP servers · 1 server: 1 ready", "http server from the config")
	checkGolden(t, h, 100, 24)
	h.typeText("r")
	h.waitView("restart srv")
	// l signs in; what the runtime answers shows (here: no token store).
	h.typeText("l")
	h.waitView("no state directory to keep the token in")
}

// TestGoldenMCPElicitation: a tool that asks the user for input opens a
// form; what is typed into it, submitted with Enter, is the tool's answer.
func TestGoldenMCPElicitation(t *testing.T) {
	rt := mcpRuntime(t, nil,
		agenttest.Reply().ToolCall("c1", "mcp__srv__ask", `{}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text("thanks").Stop(agent.StopReasonStop))
	h := newHarness(t, rt, 80, 24)
	h.typeText("go")
	h.key(tea.KeyEnter, false)
	h.waitFor("the form", func(m Model) bool { return len(m.dialogs) == 1 })
	// The attempt's profile and the meter after the tool call, which the bridge
	// brings on its own way.
	h.waitView("test:default", "481/100k")
	checkGolden(t, h, 80, 24)
	h.typeText("Ada")
	h.key(tea.KeyEnter, false)
	h.waitFor("the answer to reach the tool", func(m Model) bool {
		for _, msg := range rt.State().Messages {
			if msg.Role == agent.RoleToolResult && len(msg.Content) > 0 {
				return strings.Contains(msg.Content[0].Text, `accept {"name":"Ada"}`)
			}
		}
		return false
	})
}

// TestMCPElicitationCancel: Esc cancels (the MCP specification's "the
// user dismissed it"), Ctrl+D declines.
func TestMCPElicitationCancel(t *testing.T) {
	for _, c := range []struct {
		key  tea.KeyType
		want string
	}{{tea.KeyEsc, "cancel"}, {tea.KeyCtrlD, "decline"}} {
		t.Run(c.want, func(t *testing.T) {
			rt := mcpRuntime(t, nil,
				agenttest.Reply().ToolCall("c1", "mcp__srv__ask", `{}`).Stop(agent.StopReasonToolUse),
				agenttest.Reply().Text("ok").Stop(agent.StopReasonStop))
			h := newHarness(t, rt, 80, 24)
			h.typeText("go")
			h.key(tea.KeyEnter, false)
			h.waitFor("the form", func(m Model) bool { return len(m.dialogs) == 1 })
			h.key(c.key, false)
			h.waitFor("the tool's result", func(m Model) bool {
				for _, msg := range rt.State().Messages {
					if msg.Role == agent.RoleToolResult && len(msg.Content) > 0 {
						return strings.HasPrefix(msg.Content[0].Text, c.want+" ")
					}
				}
				return false
			})
		})
	}
}

// TestGoldenMCPTrust: a workspace whose .mcp.json is not trusted is asked
// about once at start-up, naming the file's commands, in a guarded
// question; allowing it trusts the workspace and starts the servers.
func TestGoldenMCPTrust(t *testing.T) {
	// A fixed directory: the question names the file, and the golden holds it.
	ws := "/tmp/steer-tui-mcp-trust"
	if err := os.MkdirAll(ws, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(ws) })
	file := `{"mcpServers": {"repo": {"command": "./tools/serve", "args": ["--stdio"]}}}`
	if err := os.WriteFile(filepath.Join(ws, ".mcp.json"), []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	project, err := config.LoadMCPProject(ws)
	if err != nil {
		t.Fatal(err)
	}
	rt := mcpRuntime(t, project)
	clk := &fakeClock{t: epoch}
	h := newHarness(t, rt, 100, 24, func(o *Options) { o.Now = clk.Now })
	h.waitFor("the question", func(m Model) bool { return len(m.dialogs) == 1 })
	if !h.m.dialogs[0].Guarded() {
		t.Fatal("the trust question is not guarded against keys typed ahead")
	}
	checkGolden(t, h, 100, 24)
	if w, _ := rt.WorkspaceTrust(); w.Trusted || rt.WorkspaceTrusted() {
		t.Fatal("trusted before the user allowed it")
	}
	clk.Add(time.Second) // past the pause: a deliberate key
	h.typeText("a")
	h.waitFor("the trust", func(Model) bool { w, _ := rt.WorkspaceTrust(); return w.Trusted })
	h.waitFor("its server started", func(Model) bool {
		for _, s := range rt.MCPServers() {
			if s.Name == "repo" && s.State != runner.MCPUntrusted {
				return true
			}
		}
		return false
	})
}
