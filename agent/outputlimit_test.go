package agent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

func TestStreamWriterMarksCutToolCalls(t *testing.T) {
	tests := []struct {
		args       string
		incomplete bool
	}{
		{`{"text":"one"}`, false},
		{`{}`, false},
		{`{"text":"tw`, true},
		{``, true},
	}
	for _, tt := range tests {
		stream := agent.NewAssistantStream()
		w := agent.NewStreamWriter(context.Background(), stream, agenttest.Model, agenttest.Epoch)
		go func() {
			w.Start()
			w.ToolCallStart("c1", "echo")
			if tt.args != "" {
				w.ToolCallDelta(tt.args)
			}
			w.Finish(agent.StopReasonLength)
		}()
		for range stream.Events() {
		}
		msg, err := stream.Result(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if got := msg.ToolCalls()[0].Incomplete; got != tt.incomplete {
			t.Errorf("arguments %q: Incomplete = %v, want %v", tt.args, got, tt.incomplete)
		}
	}
}

// TestOutputLimitInTheMiddleOfToolCalls: a response cut by its output limit
// after a complete call and in the middle of the next runs the complete one
// and goes on from its result, telling the model what was dropped; past
// MaxOutputLimitContinuations such a response ends the run. (seed)
func TestOutputLimitInTheMiddleOfToolCalls(t *testing.T) {
	cutReply := func(n string) *agenttest.Response {
		return agenttest.Reply().Text("writing").
			ToolCall("c"+n, "echo", `{"text":"`+n+`"}`).
			ToolCall("x"+n, "echo", `{"text":"half`).
			Stop(agent.StopReasonLength)
	}
	tests := []struct {
		name    string
		replies []*agenttest.Response
		ran     []string // the echo calls that ran
		last    string   // the last message's text
	}{
		{"goes on from the complete calls",
			[]*agenttest.Response{cutReply("1"), agenttest.Reply().Text("done").Stop(agent.StopReasonStop)},
			[]string{"1"}, "done"},
		{"the budget ends it",
			[]*agenttest.Response{cutReply("1"), cutReply("2"), cutReply("3"), cutReply("4")},
			[]string{"1", "2", "3"}, "writing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ran []string
			tool := funcTool{name: "echo", run: func(_ context.Context, args map[string]any, _ agent.ToolUpdate) (agent.ToolResult, error) {
				ran = append(ran, args["text"].(string))
				return agent.TextResult(args["text"].(string)), nil
			}}
			f := newFixture(t, agenttest.NewScript(tt.replies...), tool)
			if err := f.agent.Prompt("go"); err != nil {
				t.Fatal(err)
			}
			f.wait(t)
			equalTraces(t, ran, tt.ran)
			msgs := f.agent.State().Messages
			if last := msgs[len(msgs)-1]; last.TextContent() != tt.last || len(last.ToolCalls()) != 0 {
				t.Fatalf("the run ended with %q (%d calls), want %q", last.TextContent(), len(last.ToolCalls()), tt.last)
			}
			notes := 0
			for i, m := range msgs {
				for _, c := range m.ToolCalls() {
					if c.Incomplete {
						t.Errorf("message %d keeps the cut call %s", i, c.ID)
					}
				}
				if m.Role == agent.RoleUser && strings.HasPrefix(m.TextContent(), "[runtime]") {
					notes++
					if prev := msgs[i-1]; prev.Role != agent.RoleToolResult || !strings.Contains(m.TextContent(), "(echo)") {
						t.Errorf("note %q after %s", m.TextContent(), prev.Role)
					}
				}
			}
			if notes != len(tt.ran) {
				t.Errorf("%d notes, want one per continuation (%d)", notes, len(tt.ran))
			}
		})
	}
}
