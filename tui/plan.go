package tui

import (
	"context"
	"os"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/chat"
	"github.com/steer-tui/steer/tui/dialog"
	"github.com/steer-tui/steer/tui/input"
	"github.com/steer-tui/steer/tui/msgs"
)

// Plan mode (the runner's planmode.go) in the TUI:
//
//	/plan, Alt+P           toggle plan mode (/plan on, /plan off say which)
//	approval_mode notice   the mode now: the status bar shows it, the
//	                       transcript says it (plan mode: with the plan file)
//	plan annotation        the plan the model wrote: a question showing it,
//	                       rendered, that one key answers (planDialog)
//	y / a                  approve into ask / auto: the runner switches the
//	                       mode and sends the plan, read again from its file
//	e, Ctrl+G              edit the plan file in $EDITOR, then ask again
//	n, Esc                 keep planning: the model is told nothing

// Planning is what plan mode asks of the runtime; the calls may do IO and
// run on the calls' lane (calls.go).
type Planning interface {
	// SetApprovalMode switches the session's approval mode.
	SetApprovalMode(mode runner.ApprovalMode) error
	// ApprovePlan reads the plan file again, switches to mode (ask or
	// auto) and sends the plan as a follow-up.
	ApprovePlan(ctx context.Context, mode runner.ApprovalMode) (agent.QueueItem, bool, error)
}

// planMsg is a message of this file's: the root routes them all here.
type planMsg interface{ plan() }

// planWant is what /plan asks for.
type planWant int

const (
	planToggle planWant = iota
	planOn
	planOff
)

type (
	// setPlanMsg asks to enter or leave plan mode (/plan, Alt+P).
	setPlanMsg struct{ want planWant }
	// approvePlanMsg approves the plan into mode.
	approvePlanMsg struct{ mode runner.ApprovalMode }
	// editPlanMsg asks to edit the plan file in the user's editor.
	editPlanMsg struct{ path string }
	// planEditedMsg reports that the editor ended (err: why it failed).
	planEditedMsg struct {
		path string
		err  error
	}
	// planReadMsg is the plan file read again after an edit.
	planReadMsg struct {
		info runner.PlanInfo
		err  error
	}
	// keepPlanningMsg is the question's no: the plan stays a draft.
	keepPlanningMsg struct{}
)

func (setPlanMsg) plan()      {}
func (approvePlanMsg) plan()  {}
func (editPlanMsg) plan()     {}
func (planEditedMsg) plan()   {}
func (planReadMsg) plan()     {}
func (keepPlanningMsg) plan() {}

// planTag tags the plan's question.
const planTag = "plan"

// planState is the session's approval mode as the runtime last said it.
type planState struct {
	mode runner.ApprovalMode
	// file is the plan file while mode is plan.
	file string
	// left is the mode plan mode was entered from, which leaving it
	// returns to ("" when unknown: ask).
	left runner.ApprovalMode
}

// switched is st after the runtime said the mode is now info's.
func (st planState) switched(mode runner.ApprovalMode, file string) planState {
	if mode == runner.ApprovalPlan && st.mode != runner.ApprovalPlan {
		st.left = st.mode
	}
	st.mode, st.file = mode, file
	return st
}

// planTarget is the mode /plan asks for from st, and whether that changes
// anything: on is plan, off the mode plan mode was entered from (ask when
// unknown), toggle whichever of the two st is not in.
func planTarget(st planState, want planWant) (runner.ApprovalMode, bool) {
	inPlan := st.mode == runner.ApprovalPlan
	if want == planToggle {
		want = planOn
		if inPlan {
			want = planOff
		}
	}
	if want == planOn {
		return runner.ApprovalPlan, !inPlan
	}
	back := st.left
	if back == "" || back == runner.ApprovalPlan {
		back = runner.ApprovalAsk
	}
	return back, inPlan
}

// planCommand is /plan's request for its argument.
func planCommand(args string) tea.Msg {
	switch strings.TrimSpace(args) {
	case "":
		return setPlanMsg{want: planToggle}
	case "on":
		return setPlanMsg{want: planOn}
	case "off":
		return setPlanMsg{want: planOff}
	}
	return msgs.HintMsg{Text: "/plan toggles plan mode; /plan on or /plan off say which"}
}

// routePlan handles the plan messages.
func (m Model) routePlan(msg planMsg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case setPlanMsg:
		return m.handleSetPlan(msg.want)
	case approvePlanMsg:
		rt := m.rt
		m.calls.submit(call{run: func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
			defer cancel()
			if _, _, err := rt.ApprovePlan(ctx, msg.mode); err != nil {
				return msgs.ErrorMsg{Action: "approve the plan", Err: err}
			}
			return nil
		}})
		return m, nil
	case editPlanMsg:
		path := msg.path
		return m, input.EditFile(path, func(err error) tea.Msg { return planEditedMsg{path: path, err: err} })
	case planEditedMsg:
		var hint tea.Cmd
		if msg.err != nil {
			m, hint = m.hint(msg.err.Error() + " · the plan is unchanged")
		}
		return m, tea.Batch(hint, readPlan(msg.path))
	case planReadMsg:
		if msg.err != nil {
			return m.updateStatus(msgs.ErrorMsg{Action: "read the plan", Err: msg.err})
		}
		return m.showPlan(msg.info), nil
	case keepPlanningMsg:
		return m.hint("keep planning: tell the model what to change · the plan waits in " + m.plan.file)
	}
	return m, nil
}

// handleSetPlan asks the runtime for the mode /plan wants.
func (m Model) handleSetPlan(want planWant) (Model, tea.Cmd) {
	mode, change := planTarget(m.plan, want)
	if !change {
		if mode == runner.ApprovalPlan {
			return m.hint("plan mode is on: the plan goes to " + m.plan.file)
		}
		return m.hint("plan mode is off")
	}
	rt := m.rt
	m.calls.submit(call{run: func() tea.Msg {
		if err := rt.SetApprovalMode(mode); err != nil {
			return msgs.ErrorMsg{Action: "switch to " + string(mode), Err: err}
		}
		return nil // the runtime's approval_mode notice says it
	}})
	return m, nil
}

// readPlan reads the plan file again.
func readPlan(path string) tea.Cmd {
	return func() tea.Msg {
		raw, err := os.ReadFile(path)
		return planReadMsg{info: runner.PlanInfo{Path: path, Text: string(raw)}, err: err}
	}
}

// handleModeNotice takes the runtime's word on the approval mode: the
// state /plan toggles from, and a note in the transcript.
func (m Model) handleModeNotice(n runner.Notice) Model {
	info, ok := n.Data.(runner.ApprovalModeInfo)
	if !ok || (info.SessionID != "" && m.sessionID != "" && info.SessionID != m.sessionID) {
		return m
	}
	m.plan = m.plan.switched(info.Mode, info.PlanFile)
	note := "tool approval is now " + string(info.Mode)
	if info.Mode == runner.ApprovalPlan {
		note = m.planNote()
	}
	m, _ = m.updateChat(msgs.NoteMsg{Text: note})
	return m
}

// planNote says that plan mode is on and where the plan goes.
func (m Model) planNote() string {
	return "plan mode: only read-only tools run until you approve a plan; the model writes it to " +
		m.plan.file + " · " + m.keys.PlanMode.Help().Key + " or /plan off leaves"
}

// handlePlanEvents opens the plan's question for each plan the model
// wrote among events (the latest replaces one still open).
func (m Model) handlePlanEvents(events []agent.Event) Model {
	for _, ev := range events {
		if a, ok := ev.(agent.Annotation); ok && a.Kind == runner.AnnotationPlan {
			if info, ok := a.Data.(runner.PlanInfo); ok {
				m = m.showPlan(info)
			}
		}
	}
	return m
}

// showPlan opens the plan's question, replacing one still open.
func (m Model) showPlan(info runner.PlanInfo) Model {
	return m.dropDialog(planTag).openDialog(m.planDialog(info))
}

// planDialogMargin is what the dialog's box and padding take of the width.
const planDialogMargin = 8

// planDialog shows the plan, rendered as the transcript renders Markdown,
// and asks what to do with it; Esc keeps planning.
func (m Model) planDialog(info runner.PlanInfo) dialog.Model {
	lines := chat.RenderMarkdown(info.Text, m.width-planDialogMargin, m.styles.Chat.Markdown, m.opts.Profile)
	text := "written to " + clean(info.Path) + "\n\n" + strings.Join(lines, "\n")
	edit := editPlanMsg{path: info.Path}
	items := []dialog.Item{
		{Label: "Approve, then ask before each change", Detail: "ask", Shortcut: "y", Msg: approvePlanMsg{mode: runner.ApprovalAsk}},
		{Label: "Approve, and let it run", Detail: "auto", Shortcut: "a", Msg: approvePlanMsg{mode: runner.ApprovalAuto}},
		{Label: "Edit the plan in $EDITOR", Detail: m.dialogKeys().Edit.Help().Key, Shortcut: "e", Msg: edit},
		{Label: "Keep planning", Detail: "tell the model what to change", Shortcut: "n", Msg: keepPlanningMsg{}},
	}
	return dialog.NewQuestion(m.dialogDeps(), "The plan", text, items, keepPlanningMsg{}).WithEdit(edit).WithTag(planTag)
}

// planLoaded takes a session's mode from its snapshot (start, a switch).
func (m Model) planLoaded(msg msgs.SessionLoadedMsg) Model {
	if msg.Approval == "" {
		return m
	}
	m.plan = planState{mode: msg.Approval, file: msg.PlanFile}
	if msg.Approval == runner.ApprovalPlan {
		m, _ = m.updateChat(msgs.NoteMsg{Text: m.planNote()})
	}
	return m
}
