package runner

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/tools"
)

// countingTool records how often it ran; without a Describe method the gate
// counts it as mutating, so "ask" asks before it.
type countingTool struct{ ran chan struct{} }

func (countingTool) Spec() agent.ToolSpec {
	return agent.ToolSpec{Name: "touch", Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (c countingTool) Execute(context.Context, string, map[string]any, agent.ToolUpdate) (agent.ToolResult, error) {
	c.ran <- struct{}{}
	return agent.TextResult("touched"), nil
}

func TestApprovals(t *testing.T) {
	tests := []struct {
		name        string
		mode        tools.Mode
		interactive bool
		answer      string // the decision given to the request; "" when none is expected
		wantRan     bool
		wantResult  string
		wantAsked   bool
		wantReplies int // model requests: 1 when the run ends at the tool
	}{
		{"auto runs without asking", tools.ModeAuto, true, "", true, "touched", false, 2},
		{"ask and allow", tools.ModeAsk, true, "allow", true, "touched", true, 2},
		{"ask and deny ends the turn", tools.ModeAsk, true, "deny", false, "denied by the user", true, 1},
		{"ask with nobody to answer refuses", tools.ModeAsk, false, "", false, "--approve auto", false, 2},
		{"never refuses", tools.ModeNever, true, "", false, `tool approval is "never"`, false, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := countingTool{ran: make(chan struct{}, 1)}
			script := agenttest.NewScript(
				agenttest.Reply().ToolCall("c1", "touch", `{}`).Stop(agent.StopReasonToolUse),
				agenttest.Reply().Text("done").Stop(agent.StopReasonStop),
			)
			rt := newRuntime(t, nil, script, Options{Tools: []agent.Tool{tool}, Approval: tt.mode, Interactive: tt.interactive})
			asked := make(chan ApprovalRequest, 1)
			rt.Subscribe(func(ev agent.Event) {
				if a, ok := ev.(agent.Annotation); ok && a.Kind == AnnotationApprovalRequest {
					asked <- a.Data.(ApprovalRequest)
				}
			})
			if err := rt.Prompt(context.Background(), "go"); err != nil {
				t.Fatal(err)
			}
			if tt.wantAsked {
				req := <-asked
				if req.ID != "c1" || req.ToolName != "touch" {
					t.Fatalf("request %+v", req)
				}
				if got := rt.PendingApprovals(); len(got) != 1 || got[0].ID != "c1" {
					t.Fatalf("pending approvals %+v", got)
				}
				d, err := ParseApprovalDecision(tt.answer)
				if err != nil {
					t.Fatal(err)
				}
				if err := rt.Approve("c1", d); err != nil {
					t.Fatal(err)
				}
				if err := rt.Approve("c1", d); err == nil {
					t.Fatal("a second answer to the same call was accepted")
				}
			}
			waitIdle(t, rt)
			select {
			case <-asked:
				t.Fatal("asked although the mode does not ask")
			default:
			}
			ran := len(tool.ran) > 0
			if ran != tt.wantRan {
				t.Fatalf("tool ran = %v, want %v", ran, tt.wantRan)
			}
			msgs := rt.State().Messages
			var result agent.Message
			for _, m := range msgs {
				if m.Role == agent.RoleToolResult {
					result = m
				}
			}
			if !strings.Contains(result.TextContent(), tt.wantResult) {
				t.Fatalf("tool result %q, want it to contain %q", result.TextContent(), tt.wantResult)
			}
			if got := len(script.Requests()); got != tt.wantReplies {
				t.Fatalf("%d model requests, want %d", got, tt.wantReplies)
			}
		})
	}
}

// TestApprovalWaitPausesTheRunTimeout: a run whose limit passes while it
// waits for the user's answer is not aborted.
func TestApprovalWaitPausesTheRunTimeout(t *testing.T) {
	tool := countingTool{ran: make(chan struct{}, 1)}
	script := agenttest.NewScript(
		agenttest.Reply().ToolCall("c1", "touch", `{}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text("done").Stop(agent.StopReasonStop),
	)
	rt := newRuntime(t, nil, script, Options{Tools: []agent.Tool{tool}, Approval: tools.ModeAsk, Interactive: true,
		RunTimeout: time.Minute})
	ft := &fakeTimers{now: time.Unix(0, 0)}
	rt.clock.after, rt.clock.now = ft.after, ft.clock
	asked := make(chan struct{}, 1)
	rt.Subscribe(func(ev agent.Event) {
		if a, ok := ev.(agent.Annotation); ok && a.Kind == AnnotationApprovalRequest {
			asked <- struct{}{}
		}
	})
	if err := rt.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	<-asked
	ft.advance(time.Hour) // the limit passes while the user thinks
	if err := rt.Approve("c1", ApproveOnce); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	if rt.TimedOut() {
		t.Fatal("the run timed out while it waited for approval")
	}
	if last := rt.State().Messages[len(rt.State().Messages)-1]; last.TextContent() != "done" {
		t.Fatalf("last message %+v", last)
	}
}
