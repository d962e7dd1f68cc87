package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/dialog"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/sanitize"
)

// answerApprovalMsg is the user's answer to a tool call's approval request
// (in a sub-agent's session, or "" for the session's own run).
type answerApprovalMsg struct {
	session, id string
	decision    runner.ApprovalDecision
}

// approvalTag tags a request's question: call ids are unique only within
// one provider's answers, so a sub-agent's session tells two apart.
func approvalTag(sessionID, id string) string { return sessionID + "/" + id }

// approvalArgsMax bounds the arguments shown in an approval dialog.
const approvalArgsMax = 2000

// handleApprovalEvents opens a question for each approval request among
// events and closes the question of each request resolved elsewhere (an
// rpc client answered, the run was aborted).
func (m Model) handleApprovalEvents(events []agent.Event) Model {
	for _, ev := range events {
		a, ok := ev.(agent.Annotation)
		if !ok {
			continue
		}
		switch data := a.Data.(type) {
		case runner.ApprovalRequest:
			if a.Kind == runner.AnnotationApprovalRequest && !m.hasDialog(approvalTag(data.SessionID, data.ID)) {
				m = m.openDialog(m.approvalDialog(data))
			}
		case runner.ApprovalResolved:
			if a.Kind == runner.AnnotationApprovalResolved {
				m = m.dropDialog(approvalTag(data.SessionID, data.ID))
			}
		}
	}
	return m
}

// approvalDialog asks whether the call may run: allow once, allow what the
// request's grant rules cover for the session, save those rules to the
// project's or the global config, or deny (also what Esc answers).
func (m Model) approvalDialog(req runner.ApprovalRequest) dialog.Model {
	answer := func(d runner.ApprovalDecision) tea.Msg {
		return answerApprovalMsg{session: req.SessionID, id: req.ID, decision: d}
	}
	grant := clean(strings.Join(req.Grant, ", "))
	items := []dialog.Item{{Label: "Allow once", Shortcut: "y", Msg: answer(runner.ApproveOnce)},
		{Label: "Allow for this session", Detail: grant, Shortcut: "a", Msg: answer(runner.ApproveSession)}}
	if len(req.Grant) > 0 {
		save := func(scope string) tea.Msg {
			return saveRuleMsg{scope: scope, kind: "allow", rules: req.Grant, session: req.SessionID, id: req.ID}
		}
		items = append(items,
			dialog.Item{Label: "Always allow: save to the project config", Detail: grant, Shortcut: "p", Msg: save(runner.RuleScopeProject)},
			dialog.Item{Label: "Always allow: save to the global config", Detail: grant, Shortcut: "g", Msg: save(runner.RuleScopeGlobal)})
	}
	items = append(items, dialog.Item{Label: "Deny", Detail: "the model is told, and the turn ends", Shortcut: "n", Msg: answer(runner.ApproveDeny)})
	title := "Allow " + sanitize.String(req.ToolName, sanitize.Options{}) + "?"
	if req.SessionID != "" {
		title += " (sub-agent " + req.SessionID + ")"
	}
	return dialog.NewQuestion(m.dialogDeps(), title, approvalText(req), items, answer(runner.ApproveDeny)).WithTag(approvalTag(req.SessionID, req.ID))
}

// approvalText is what the dialog shows of a call: its summary, a warning
// when it reaches outside the workspace, then the diff of a write or an
// edit, else the arguments. Everything the model wrote is sanitised.
func approvalText(req runner.ApprovalRequest) string {
	var b strings.Builder
	b.WriteString(clean(req.Summary))
	if req.Outside {
		fmt.Fprintf(&b, "\n⚠ outside the workspace: %s", clean(strings.Join(req.Paths, ", ")))
	}
	if req.Reason != "" {
		fmt.Fprintf(&b, "\nasks because: %s", clean(req.Reason))
	}
	b.WriteString("\n")
	if req.ToolName == "bash" && len(req.Parts) > 0 {
		b.WriteString("\n" + partsText(req.Parts))
	}
	if req.Diff != "" {
		b.WriteString("\n" + clean(req.Diff))
		return b.String()
	}
	var raw bytes.Buffer
	enc := json.NewEncoder(&raw)
	enc.SetEscapeHTML(false) // a command's > and & as the model wrote them
	enc.SetIndent("", "  ")
	if err := enc.Encode(req.Args); err != nil {
		return b.String()
	}
	args := strings.TrimSuffix(raw.String(), "\n")
	if len(args) > approvalArgsMax {
		args = args[:approvalArgsMax] + "\n…"
	}
	b.WriteString("\n" + clean(args))
	return b.String()
}

// dropDialog closes the dialog tagged tag, wherever it is in the stack.
func (m Model) dropDialog(tag string) Model {
	for i, d := range m.dialogs {
		if d.Tag() == tag {
			m.dialogs = append(m.dialogs[:i:i], m.dialogs[i+1:]...)
			break
		}
	}
	return m
}

// hasDialog reports whether the question tagged tag is open: a session
// switched to lists its waiting approvals, whose events may follow.
func (m Model) hasDialog(tag string) bool { return m.dialogIndex(tag) >= 0 }

// dropApprovalDialogs closes every approval question (the dialogs tagged
// other than the session picker): after a switch they belong to a session in the background, which
// keeps waiting for its answer until the user switches back.
func (m Model) dropApprovalDialogs() Model {
	kept := m.dialogs[:0:0]
	for _, d := range m.dialogs {
		if d.Tag() == "" || d.Tag() == sessionPickerTag || strings.HasPrefix(d.Tag(), elicitTagPrefix) {
			kept = append(kept, d)
		}
	}
	m.dialogs = kept
	return m
}

// handleAnswerApproval hands the answer to the runtime.
func (m Model) handleAnswerApproval(msg answerApprovalMsg) (Model, tea.Cmd) {
	rt := m.rt
	m.calls.submit(call{run: func() tea.Msg {
		if err := rt.ApproveIn(msg.session, msg.id, msg.decision); err != nil {
			return msgs.ErrorMsg{Action: "answer the approval", Err: err}
		}
		return nil
	}})
	return m, nil
}

// clean is text the model wrote, safe to show.
func clean(s string) string { return sanitize.String(s, sanitize.Options{}) }

// partVerdicts mark each part of a command with the rules' verdict.
var partVerdicts = map[string]string{
	"allowed":   "✓ allowed",
	"asks":      "? asks",
	"denied":    "✗ denied",
	"undecided": "· no rule",
}

// partsText lists a command's parts, each with its verdict and the rule
// that decided it (or why it asks by itself).
func partsText(parts []runner.ApprovalPart) string {
	var b strings.Builder
	b.WriteString("parts:\n")
	for _, p := range parts {
		verdict := partVerdicts[p.Verdict]
		if verdict == "" {
			verdict = p.Verdict
		}
		text := clean(p.Text)
		if p.Wrapper {
			text += " (wrapper)"
		}
		fmt.Fprintf(&b, "  %-11s %s", verdict, text)
		switch {
		case p.Rule != "":
			fmt.Fprintf(&b, "  · %s", clean(p.Rule))
		case p.Reason != "":
			fmt.Fprintf(&b, "  · %s", clean(p.Reason))
		}
		b.WriteString("\n")
	}
	return b.String()
}
