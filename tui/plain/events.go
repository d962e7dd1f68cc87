package plain

import (
	"fmt"
	"strings"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
)

// What each event writes; every other event writes nothing (deltas and
// updates are parts of an item still open):
//
//	MessageEnd, user          "you: TEXT"
//	MessageEnd, assistant     "steer: TEXT", or "error: …"/"aborted: …"
//	ToolExecutionStart        "tool: NAME ARG"
//	ToolExecutionEnd          "tool NAME ok|failed:" and the result's first lines, indented
//	approval request          "approve NAME SUMMARY? y (allow), a (always), n (deny)"
//	approval resolved         "approval: DECISION"
//	run_end, not completed    "run OUTCOME: REASON"
//	plan                      "plan (PATH):", its text, "carry out the plan? y …, a …, n …"
func (p *printer) event(ev agent.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e := ev.(type) {
	case agent.MessageEnd:
		p.message(e.Message)
	case agent.ToolExecutionStart:
		p.sayLocked(strings.TrimSpace("tool: " + e.ToolName + " " + firstLine(argOf(e.Args))))
	case agent.ToolExecutionEnd:
		status := "ok"
		if e.IsError {
			status = "failed"
		}
		p.sayLocked("tool " + e.ToolName + " " + status + ":" + p.result(e.Result))
	case agent.Annotation:
		p.annotation(e)
	}
}

func (p *printer) message(m agent.Message) {
	switch {
	case m.Role == agent.RoleUser:
		p.sayLocked("you: " + m.TextContent())
	case m.Role != agent.RoleAssistant:
	case m.StopReason == agent.StopReasonError:
		p.sayLocked("error: " + m.ErrorMessage)
	case m.StopReason == agent.StopReasonAborted:
		p.sayLocked("aborted: " + m.ErrorMessage)
	case m.HasText():
		p.sayLocked("steer: " + m.TextContent())
	}
}

func (p *printer) annotation(a agent.Annotation) {
	switch d := a.Data.(type) {
	case runner.ApprovalRequest:
		if a.Kind != runner.AnnotationApprovalRequest {
			return
		}
		p.askLocked(&approvalQuestion{h: p.h, req: d})
	case runner.ApprovalResolved:
		switch {
		case d.Decision != "":
			p.sayLocked("approval: " + d.Decision)
		case d.Error != "":
			p.sayLocked("approval: " + d.Error)
		}
		for _, q := range p.asks {
			if a, ok := q.(*approvalQuestion); ok && a.req.ID == d.ID && a.req.SessionID == d.SessionID {
				p.dropLocked(q)
				break
			}
		}
	case runner.PlanInfo:
		if a.Kind == runner.AnnotationPlan {
			p.askLocked(&planQuestion{approve: p.approvePlan, info: d})
		}
	case runner.RunEnd:
		if a.Kind != runner.AnnotationRunEnd || d.Completed() || d.Outcome == runner.OutcomeCancelled {
			return
		}
		line := "run " + d.Outcome
		if d.Reason != "" {
			line += ": " + d.Reason
		}
		p.sayLocked(line)
	}
}

// result is a tool result's text, its first p.lines lines each indented on
// a line of its own, and how many more there were.
func (p *printer) result(r agent.ToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if c.Type == agent.ContentText {
			b.WriteString(c.Text)
		}
	}
	text := strings.TrimRight(b.String(), "\n")
	if text == "" {
		return " (no output)"
	}
	lines := strings.Split(text, "\n")
	var out strings.Builder
	for i, l := range lines {
		if i == p.lines {
			fmt.Fprintf(&out, "\n  … %d more lines", len(lines)-i)
			break
		}
		out.WriteString("\n  " + l)
	}
	return out.String()
}

// argOf is the argument that says most about a call.
func argOf(args map[string]any) string {
	for _, k := range []string{"command", "path", "pattern", "query", "url"} {
		if v, ok := args[k].(string); ok {
			return v
		}
	}
	return ""
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
