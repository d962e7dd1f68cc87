package tui

import (
	"context"
	"net/http"
	"net/http/httptest"
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
)

// mcpHost is a host whose MCP server "srv" is the SDK's test server (a
// prompt greet <name>, a resource test://readme, a template
// test://items/{id}) over streamable HTTP, settled, with the scripted
// provider playing responses and the script to read its requests; the
// server is returned to change its lists.
func mcpHost(t *testing.T, responses ...*agenttest.Response) (*runner.Host, *agenttest.Script, *sdk.Server) {
	t.Helper()
	srv := mcptest.NewServer(nil)
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(ts.Close)
	m := mcp.New([]mcp.Config{{Name: "srv", Transport: mcp.TransportHTTP, URL: ts.URL}}, nil, false, nil)
	t.Cleanup(m.Close)
	m.Start()
	if err := m.Settled(context.Background()); err != nil {
		t.Fatal(err)
	}
	script := agenttest.NewScript(responses...)
	rt, err := runner.New(context.Background(), runner.Options{
		Providers: []runner.Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: script.Stream}},
		Now:       agenttest.Clock, Workspace: t.TempDir(), MCP: m,
	})
	if err != nil {
		t.Fatal(err)
	}
	h := runner.NewHost(rt)
	t.Cleanup(func() {
		h.AbortWith(runner.AbortQuit)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = h.WaitForIdle(ctx)
		_ = h.Close(ctx)
	})
	return h, script, srv
}

// TestParsePromptArgs: arguments by name and by position, the last taking
// the rest of the line, quotes, and the errors that name the arguments.
func TestParsePromptArgs(t *testing.T) {
	complex := runner.MCPPrompt{Server: "everything", Name: "complex_prompt", Arguments: []mcp.PromptArgument{
		{Name: "temperature", Required: true}, {Name: "style"}}}
	one := runner.MCPPrompt{Server: "srv", Name: "summarise", Arguments: []mcp.PromptArgument{{Name: "text", Required: true}}}
	none := runner.MCPPrompt{Server: "srv", Name: "simple"}
	cases := []struct {
		p       runner.MCPPrompt
		line    string
		want    map[string]string
		wantErr string
	}{
		{complex, "temperature=0.7 style=short", map[string]string{"temperature": "0.7", "style": "short"}, ""},
		{complex, "0.7 short", map[string]string{"temperature": "0.7", "style": "short"}, ""},
		{complex, "style=short 0.7", map[string]string{"temperature": "0.7", "style": "short"}, ""},
		{complex, "0.7", map[string]string{"temperature": "0.7"}, ""},
		{complex, `0.7 "very short indeed"`, map[string]string{"temperature": "0.7", "style": "very short indeed"}, ""},
		{complex, "0.7 short and sweet", map[string]string{"temperature": "0.7", "style": "short and sweet"}, ""},
		{complex, `0.7 "a=b"`, map[string]string{"temperature": "0.7", "style": "a=b"}, ""},
		{complex, "", nil, "/everything:complex_prompt needs temperature: /everything:complex_prompt <temperature> [style]"},
		{complex, "style=short", nil, "needs temperature"},
		{complex, "mood=calm", nil, `/everything:complex_prompt has no argument "mood": it takes <temperature> [style]`},
		{complex, `0.7 "short`, nil, "is not closed"},
		{one, "all of this   text", map[string]string{"text": "all of this   text"}, ""},
		{none, "", map[string]string{}, ""},
		{none, "extra", nil, `/srv:simple takes no arguments: "extra" is one too many`},
	}
	for _, c := range cases {
		got, err := parsePromptArgs(c.p, c.line)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s %q: error %v, want %q", c.p.Name, c.line, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %q: %v", c.p.Name, c.line, err)
			continue
		}
		if len(got) != len(c.want) {
			t.Errorf("%s %q: %v, want %v", c.p.Name, c.line, got, c.want)
		}
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("%s %q: %v, want %v", c.p.Name, c.line, got, c.want)
			}
		}
	}
}

// TestPromptMessage: texts joined, an assistant's marked, images as
// images with a chip, a prompt of images alone sent with its command.
func TestPromptMessage(t *testing.T) {
	p := runner.MCPPrompt{Server: "srv", Name: "p"}
	img := agent.Content{Type: agent.ContentImage, MimeType: "image/png", Data: "aGVsbG8="}
	text, images := promptMessage(p, []runner.MCPPromptMessage{
		{Role: "user", Content: agent.Text("first")},
		{Role: "assistant", Content: agent.Text("an answer")},
		{Role: "user", Content: img},
		{Role: "user", Content: agent.Text("the resource's text")},
	})
	if text != "first\n\n(assistant) an answer\n\nthe resource's text" {
		t.Errorf("text %q", text)
	}
	if len(images) != 1 || images[0].Data != img.Data || images[0].Attached.Path != "srv:p image 1" || images[0].Attached.Size != 5 {
		t.Errorf("images %+v", images)
	}
	if text, _ := promptMessage(p, []runner.MCPPromptMessage{{Role: "user", Content: img}}); text != "/srv:p" {
		t.Errorf("images alone: text %q", text)
	}
}

// TestGoldenPromptCommands: the server's prompt is in the command list with
// its description and arguments; without its required argument it says
// which; with it, the prompt's text is sent as the user's message; a
// prompt the server adds later joins the list.
func TestGoldenPromptCommands(t *testing.T) {
	host, script, srv := mcpHost(t, agenttest.Reply().Text("Hello, Ann!").Stop(agent.StopReasonStop))
	h := newHarness(t, host, 80, 24, func(o *Options) { o.Mentions = host })
	h.waitFor("the prompts", func(m Model) bool { _, ok := m.commands.Lookup("srv:greet"); return ok })
	h.typeText("/srv:")
	h.waitView("/srv:greet <name>", "Greets someone.")
	checkGolden(t, h, 80, 24)
	h.key(tea.KeyEnter, false) // runs the command picked
	h.waitView("/srv:greet needs name: /srv:greet <name>")
	h.command("/srv:greet Ann")
	h.waitView("Say hello to Ann", "Hello, Ann!")
	h.waitFor("the run to end", func(m Model) bool { return !m.running })
	if reqs := script.Requests(); len(reqs) != 1 || reqs[0].Messages[len(reqs[0].Messages)-1].Typed() != "Say hello to Ann" {
		t.Fatalf("requests: %+v", reqs)
	}
	srv.AddPrompt(&sdk.Prompt{Name: "later", Description: "Added while running."},
		func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: "late"}}}}, nil
		})
	h.waitFor("the new prompt", func(m Model) bool { _, ok := m.commands.Lookup("srv:later"); return ok })
}

// TestGoldenResourceMention: "@srv:" lists the server's resource and
// template; Tab writes the resource's mention; sent, it is read from the
// server and attached with its chip; a template is written up to its
// variable, filled in by the user and read too.
func TestGoldenResourceMention(t *testing.T) {
	host, script, _ := mcpHost(t, agenttest.Reply().Text("Read it.").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("Item read.").Stop(agent.StopReasonStop))
	h := newHarness(t, host, 80, 24, func(o *Options) { o.Mentions = host })
	h.typeText("what is in @srv:")
	h.waitView("› srv:test://readme · readme", "srv:test://items/{id} · item")
	checkGolden(t, h, 80, 24)
	h.key(tea.KeyTab, false)
	if got := h.m.input.Value(); got != "what is in @srv:test://readme " {
		t.Fatalf("after Tab the editor holds %q", got)
	}
	h.key(tea.KeyEnter, false)
	h.waitView("📎 srv:test://readme · 7 B", "Read it.")
	h.waitFor("the run to end", func(m Model) bool { return !m.running })
	h.typeText("and @srv:items")
	h.waitView("› srv:test://items/{id} · item")
	h.key(tea.KeyTab, false)
	if got := h.m.input.Value(); got != "and @srv:test://items/" {
		t.Fatalf("after Tab on the template the editor holds %q", got)
	}
	h.typeText("7")
	h.waitFor("the list to close", func(m Model) bool { return !strings.Contains(m.View(), "› srv:test://items/{id}") })
	h.key(tea.KeyEnter, false)
	h.waitView("📎 srv:test://items/7", "Item read.")
	reqs := script.Requests()
	if len(reqs) != 2 {
		t.Fatalf("requests: %d", len(reqs))
	}
	if last := reqs[1].Messages[len(reqs[1].Messages)-1]; !strings.Contains(last.Content[len(last.Content)-1].Text, "item test://items/7") {
		t.Fatalf("the template's resource was not attached: %+v", last)
	}
}

// TestPromptCommandWhileRunning: a prompt run during a run is queued as
// steering, like a typed message, and reaches the run.
func TestPromptCommandWhileRunning(t *testing.T) {
	release := make(chan struct{})
	host, script, _ := mcpHost(t, agenttest.Reply().Text("working").Wait(release).Stop(agent.StopReasonStop),
		agenttest.Reply().Text("greeted").Stop(agent.StopReasonStop))
	h := newHarness(t, host, 80, 24, func(o *Options) { o.Mentions = host })
	h.waitFor("the prompts", func(m Model) bool { _, ok := m.commands.Lookup("srv:greet"); return ok })
	h.typeText("go")
	h.key(tea.KeyEnter, false)
	h.waitFor("the run", func(m Model) bool { return m.running })
	h.command("/srv:greet name=Bob")
	h.waitFor("the prompt queued as steering", func(m Model) bool {
		items := m.queue.Items()
		return len(items) == 1 && items[0].Kind == agent.QueueSteer && items[0].Text == "Say hello to Bob"
	})
	close(release)
	h.waitView("greeted")
	h.waitFor("the run to end", func(m Model) bool { return !m.running })
	if reqs := script.Requests(); len(reqs) != 2 || reqs[1].Messages[len(reqs[1].Messages)-1].Typed() != "Say hello to Bob" {
		t.Fatalf("the second request did not carry the prompt: %d requests", len(reqs))
	}
}
