package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/term"
)

// Notifications tell a user who looks elsewhere that the run needs them:
// it ended, it failed, or a tool call waits for approval. They are written
// only while the terminal reports that it is not focused (focus reporting,
// CSI ? 1004 h, which the screen turns on when a notifier is set).
//
// Before the first report the terminal counts as focused: a terminal that
// never reports focus (or a tmux without focus-events on) must not ring on
// every run's end while the user watches it. Such a terminal gets no
// notifications at all; the README says so.

// notifyTitle heads every notification.
const notifyTitle = "steer"

// handleFocusReport records the terminal's focus, as it reports it.
func (m Model) handleFocusReport(msg tea.Msg) Model {
	_, m.unfocused = msg.(tea.BlurMsg)
	return m
}

// notifyFor is the notification events call for, while the terminal is
// not focused; nil when they call for none, or it is focused.
func (m Model) notifyFor(events []agent.Event) tea.Cmd {
	n := m.opts.Terminal.Notifier
	if !n.Enabled() || !m.unfocused {
		return nil
	}
	body, ok := notification(events)
	if !ok {
		return nil
	}
	seq := n.Sequence(notifyTitle, body)
	return func() tea.Msg { return msgs.EmitSequenceMsg{Seq: seq} }
}

// notification is the one line that events call the user back for, the
// most urgent first: a failed run, a call waiting for approval, a run that
// finished. A run the user interrupted (or a signal ended) calls for none.
func notification(events []agent.Event) (string, bool) {
	var failed, approval, finished string
	for _, ev := range events {
		switch e := ev.(type) {
		case agent.Annotation:
			if req, ok := e.Data.(runner.ApprovalRequest); ok && e.Kind == runner.AnnotationApprovalRequest {
				approval = "approval needed: " + req.ToolName
			}
		case agent.AgentEnd:
			last, ok := lastAssistant(e.Messages)
			switch {
			case ok && last.StopReason == agent.StopReasonError:
				failed = "the run failed: " + last.ErrorMessage
			case ok && last.StopReason == agent.StopReasonAborted:
			default:
				finished = "the run finished"
			}
		}
	}
	for _, s := range []string{failed, approval, finished} {
		if s != "" {
			return s, true
		}
	}
	return "", false
}

// lastAssistant is the last assistant message of a run's messages.
func lastAssistant(run []agent.Message) (agent.Message, bool) {
	for i := len(run) - 1; i >= 0; i-- {
		if run[i].Role == agent.RoleAssistant {
			return run[i], true
		}
	}
	return agent.Message{}, false
}

// TerminalFeatures are what the terminal does beyond drawing, decided once
// before the program starts (RunTerminal); the zero value uses none of
// them.
type TerminalFeatures struct {
	// Notifier notifies while the terminal is not focused (ui.notifications).
	Notifier term.Notifier
	// Clipboard is the system clipboard's tool, when one is reachable;
	// copying always sends OSC 52 too.
	Clipboard term.SystemClipboard
	// SyncOutput brackets every frame for synchronized output: the
	// terminal said it supports it and ui.syncOutput did not turn it off.
	SyncOutput bool
}
