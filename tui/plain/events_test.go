package plain

import (
	"bytes"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
)

func TestEventsWriteFinishedItemsOnce(t *testing.T) {
	long := strings.Repeat("x\n", 5)
	cases := []struct {
		name   string
		events []agent.Event
		want   string
	}{
		{"a user message and its answer", []agent.Event{
			agent.MessageEnd{Message: agent.Message{Role: agent.RoleUser, Content: []agent.Content{agent.Text("hi")}}},
			agent.MessageUpdate{},
			agent.MessageEnd{Message: agent.Message{Role: agent.RoleAssistant, Content: []agent.Content{agent.Text("hello\x1b[2J there")}}},
		}, "you: hi\nsteer: hello there\n"},
		{"a failed answer", []agent.Event{
			agent.MessageEnd{Message: agent.Message{Role: agent.RoleAssistant, StopReason: agent.StopReasonError, ErrorMessage: "rate limited"}},
		}, "error: rate limited\n"},
		{"a tool call, its result cut", []agent.Event{
			agent.ToolExecutionStart{ToolName: "bash", Args: map[string]any{"command": "seq 5\necho"}},
			agent.ToolExecutionUpdate{},
			agent.ToolExecutionEnd{ToolName: "bash", Result: agent.ToolResult{Content: []agent.Content{agent.Text(long)}}, IsError: true},
		}, "tool: bash seq 5 …\ntool bash failed:\n  x\n  x\n  … 3 more lines\n"},
		{"an approval asked and answered", []agent.Event{
			agent.Annotation{Kind: runner.AnnotationApprovalRequest, Data: runner.ApprovalRequest{ID: "c1", ToolName: "write", Summary: "a.txt"}},
			agent.Annotation{Kind: runner.AnnotationApprovalResolved, Data: runner.ApprovalResolved{ID: "c1", Decision: "allow"}},
		}, "approve write a.txt? y (allow), a (always), n (deny)\napproval: allow\n"},
		{"a run that failed", []agent.Event{
			agent.Annotation{Kind: runner.AnnotationRunEnd, Data: runner.RunEnd{Outcome: runner.OutcomeFailed, Reason: "context_overflow"}},
			agent.Annotation{Kind: runner.AnnotationRunEnd, Data: runner.RunEnd{Outcome: runner.OutcomeCompleted}},
		}, "run failed: context_overflow\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			p := &printer{w: &out, lines: 2}
			for _, ev := range c.events {
				p.event(ev)
			}
			if got := out.String(); got != c.want {
				t.Errorf("wrote\n%q\nwant\n%q", got, c.want)
			}
			if len(p.asks) != 0 {
				t.Errorf("a question is still waiting: %+v", p.asks)
			}
		})
	}
}
