package tui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/tui/msgs"
)

// handleShell hands the user's own shell command (`!cmd`, `!!cmd`) to the
// runtime, in order with what was sent before it: it runs at once, or is
// queued like a follow-up while a run is active. The runtime's bash tool
// runs it (approvals included), so its block and its approval come as a
// model's call's do. A command the runtime refuses comes back to the
// editor as it was typed.
func (m Model) handleShell(msg msgs.ShellMsg) (Model, tea.Cmd) {
	rt := m.rt
	typed := "!" + msg.Command
	if msg.Private {
		typed = "!!" + msg.Command
	}
	m.calls.submit(call{unsent: typed, run: func() tea.Msg {
		if _, _, err := rt.Shell(context.Background(), msg.Command, msg.Private); err != nil {
			back := agent.QueueItem{Text: typed}
			return msgs.ItemsTakenBackMsg{Items: []agent.QueueItem{back}, Reason: "not run: " + err.Error(), Unsent: true}
		}
		return nil
	}})
	return m.updateChat(msgs.ScrollMsg{ToEnd: true})
}
