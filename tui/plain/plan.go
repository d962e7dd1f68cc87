package plain

import (
	"context"
	"strings"

	"github.com/steer-tui/steer/agent/runner"
)

// Plan mode in the plain front end: "/plan", "/plan on" and "/plan off"
// switch it (off returns to the mode it was entered from, as in the
// terminal UI; ask when that is not known); the plan the model wrote is a question, written
// whole, that the next line answers: y approves it into ask, a into auto,
// n keeps planning.

// planCommand is the line that switches plan mode.
const planCommand = "/plan"

// planMode is the mode a /plan line asks for while the session is in now,
// having entered plan mode from left ("" when not known), false for a
// line that is no /plan.
func planMode(line string, now, left runner.ApprovalMode) (runner.ApprovalMode, bool) {
	fields := strings.Fields(line)
	if len(fields) == 0 || fields[0] != planCommand || len(fields) > 2 {
		return "", false
	}
	want := "toggle"
	if len(fields) == 2 {
		want = fields[1]
	}
	switch {
	case want == "on", want == "toggle" && now != runner.ApprovalPlan:
		return runner.ApprovalPlan, true
	case want == "off" && now != runner.ApprovalPlan:
		return now, true // not in plan mode: nothing to leave
	case want == "off", want == "toggle":
		if left == "" || left == runner.ApprovalPlan {
			left = runner.ApprovalAsk
		}
		return left, true
	}
	return "", false
}

// planApprover approves the session's plan (runner.Host.ApprovePlan).
type planApprover func(ctx context.Context, mode runner.ApprovalMode) error

// planQuestion asks what to do with the plan the model wrote.
type planQuestion struct {
	approve planApprover
	info    runner.PlanInfo
}

func (q *planQuestion) prompt() string {
	return "plan (" + q.info.Path + "):\n" + strings.TrimRight(q.info.Text, "\n") +
		"\ncarry out the plan? y (approve, ask before changes), a (approve, auto), n (keep planning)"
}

// planAnswers are the answers that approve, by the mode they approve into.
var planAnswers = map[string]runner.ApprovalMode{"y": runner.ApprovalAsk, "yes": runner.ApprovalAsk, "a": runner.ApprovalAuto, "auto": runner.ApprovalAuto}

func (q *planQuestion) answer(line string) (string, bool) {
	line = strings.ToLower(line)
	if mode, ok := planAnswers[line]; ok {
		if err := q.approve(context.Background(), mode); err != nil {
			return "error: " + err.Error(), true
		}
		return "plan approved: tool approval is " + string(mode), true
	}
	if line == "n" || line == "no" {
		return "keep planning: say what to change", true
	}
	return "answer y (approve, ask), a (approve, auto) or n (keep planning)", false
}
