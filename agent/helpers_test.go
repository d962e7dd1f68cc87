package agent_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// funcTool is a tool whose behaviour is a test's closure.
type funcTool struct {
	name   string
	schema string
	run    func(ctx context.Context, args map[string]any, update agent.ToolUpdate) (agent.ToolResult, error)
}

func (t funcTool) Spec() agent.ToolSpec {
	schema := t.schema
	if schema == "" {
		schema = `{"type":"object"}`
	}
	return agent.ToolSpec{Name: t.name, Description: t.name, Parameters: json.RawMessage(schema)}
}

func (t funcTool) Execute(ctx context.Context, _ string, args map[string]any, update agent.ToolUpdate) (agent.ToolResult, error) {
	return t.run(ctx, args, update)
}

// echoTool answers with its "text" argument.
func echoTool(name string) funcTool {
	return funcTool{name: name, schema: `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`,
		run: func(_ context.Context, args map[string]any, _ agent.ToolUpdate) (agent.ToolResult, error) {
			return agent.TextResult(args["text"].(string)), nil
		}}
}

type fixture struct {
	agent  *agent.Agent
	script *agenttest.Script
	rec    *agenttest.Recorder
}

func newFixture(t *testing.T, script *agenttest.Script, tools ...agent.Tool) *fixture {
	t.Helper()
	set, err := agent.NewToolSet(tools...)
	if err != nil {
		t.Fatal(err)
	}
	ids := 0
	a := agent.New(agent.Config{
		Model: agenttest.Model, Stream: script.Stream, Tools: set, Now: agenttest.Clock,
		NewItemID:      func() string { ids++; return "item" + string(rune('0'+ids)) },
		ToolAbortGrace: 2 * time.Second,
	})
	rec := &agenttest.Recorder{}
	a.Subscribe(rec.Record)
	return &fixture{agent: a, script: script, rec: rec}
}

func (f *fixture) wait(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := f.agent.WaitForIdle(ctx); err != nil {
		t.Fatalf("agent did not become idle: %v", err)
	}
}

// waitForEvent subscribes and returns a channel closed at the first event
// whose trace is want.
func waitForEvent(a *agent.Agent, want string) <-chan struct{} {
	ch := make(chan struct{})
	var unsubscribe func()
	fired := false
	unsubscribe = a.Subscribe(func(ev agent.Event) {
		if !fired && agenttest.Trace(ev) == want {
			fired = true
			close(ch)
		}
	})
	_ = unsubscribe
	return ch
}

func within(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
}

func equalTraces(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d events, want %d\ngot:\n%s\nwant:\n%s", len(got), len(want), join(got), join(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("event %d = %q, want %q\ngot:\n%s", i, got[i], want[i], join(got))
		}
	}
}

func join(lines []string) string {
	out := ""
	for _, l := range lines {
		out += "  " + l + "\n"
	}
	return out
}
