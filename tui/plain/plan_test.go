package plain

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
)

// TestPlanMode: the /plan lines and the mode each asks for.
func TestPlanMode(t *testing.T) {
	for _, tc := range []struct {
		line      string
		now, left runner.ApprovalMode
		want      runner.ApprovalMode
		ok        bool
	}{
		{"/plan", runner.ApprovalAsk, "", runner.ApprovalPlan, true},
		{"/plan", runner.ApprovalPlan, "", runner.ApprovalAsk, true},
		{"/plan", runner.ApprovalPlan, runner.ApprovalAuto, runner.ApprovalAuto, true},
		{"/plan off", runner.ApprovalPlan, runner.ApprovalNever, runner.ApprovalNever, true},
		{"/plan on", runner.ApprovalPlan, "", runner.ApprovalPlan, true},
		{"/plan off", runner.ApprovalAuto, "", runner.ApprovalAuto, true},
		{" /plan ", runner.ApprovalAuto, "", runner.ApprovalPlan, true},
		{"/plan maybe", runner.ApprovalAsk, "", "", false},
		{"/planet", runner.ApprovalAsk, "", "", false},
		{"plan it", runner.ApprovalAsk, "", "", false},
	} {
		if got, ok := planMode(tc.line, tc.now, tc.left); got != tc.want || ok != tc.ok {
			t.Errorf("planMode(%q, %s, from %q) = %s, %v; want %s, %v", tc.line, tc.now, tc.left, got, ok, tc.want, tc.ok)
		}
	}
}

// TestPlanQuestion: the plan event writes the plan and asks; y approves
// into ask, a into auto, n keeps planning, anything else asks again, and a
// failed approval says why.
func TestPlanQuestion(t *testing.T) {
	for _, tc := range []struct {
		line    string
		fail    bool
		want    []runner.ApprovalMode
		reply   string
		pending bool
	}{
		{"y", false, []runner.ApprovalMode{runner.ApprovalAsk}, "plan approved: tool approval is ask", false},
		{"A", false, []runner.ApprovalMode{runner.ApprovalAuto}, "plan approved: tool approval is auto", false},
		{"n", false, nil, "keep planning", false},
		{"later", false, nil, "answer y (approve, ask)", true},
		{"y", true, []runner.ApprovalMode{runner.ApprovalAsk}, "error: no plan", false},
	} {
		t.Run(tc.line, func(t *testing.T) {
			var out syncBuffer
			var got []runner.ApprovalMode
			p := &printer{w: &out, lines: 2}
			approve := func(_ context.Context, mode runner.ApprovalMode) error {
				got = append(got, mode)
				if tc.fail {
					return errors.New("no plan")
				}
				return nil
			}
			info := runner.PlanInfo{Path: "/s/plans/s_1.md", Text: "# Plan\n1. do it\n"}
			p.mu.Lock()
			p.askLocked(&planQuestion{approve: approve, info: info})
			p.mu.Unlock()
			if s := out.String(); !strings.Contains(s, "plan (/s/plans/s_1.md):\n# Plan\n1. do it\ncarry out the plan? y") {
				t.Fatalf("the question: %q", s)
			}
			if !p.answerHead(tc.line) {
				t.Fatal("no question took the line")
			}
			if len(got) != len(tc.want) || (len(got) == 1 && got[0] != tc.want[0]) {
				t.Fatalf("approved %v, want %v", got, tc.want)
			}
			if s := out.String(); !strings.Contains(s, tc.reply) {
				t.Fatalf("reply %q, want %q", s, tc.reply)
			}
			if pending := len(p.asks) == 1; pending != tc.pending {
				t.Fatalf("question pending %v, want %v", pending, tc.pending)
			}
		})
	}
}

// TestPlanEventAsks: the plan annotation opens the question.
func TestPlanEventAsks(t *testing.T) {
	var out syncBuffer
	p := &printer{w: &out, lines: 2}
	p.event(agent.Annotation{Kind: runner.AnnotationPlan, Data: runner.PlanInfo{Path: "/p.md", Text: "1. x"}})
	if len(p.asks) != 1 || !strings.Contains(out.String(), "plan (/p.md):\n1. x\ncarry out the plan?") {
		t.Fatalf("asks %d, out %q", len(p.asks), out.String())
	}
}
