package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/tui/msgs"
)

// handleSubmission handles the editor's submissions in the order they were
// typed: one that arrives early waits in held until those before it came.
func (m Model) handleSubmission(sub msgs.Submission) (Model, tea.Cmd) {
	seq := sub.Order()
	if seq == 0 {
		return m.submit(sub)
	}
	if seq != m.order.next {
		m.order.held[seq] = sub
		return m, nil
	}
	var cmds []tea.Cmd
	for {
		var cmd tea.Cmd
		m, cmd = m.submit(sub)
		cmds = append(cmds, cmd)
		m.order.next++
		next, ok := m.order.held[m.order.next]
		if !ok {
			return m, tea.Batch(cmds...)
		}
		delete(m.order.held, m.order.next)
		sub = next
	}
}

func (m Model) submit(sub msgs.Submission) (Model, tea.Cmd) {
	switch msg := sub.(type) {
	case msgs.SteerMsg:
		return m.handleSend(msg.Text, false)
	case msgs.FollowUpMsg:
		return m.handleSend(msg.Text, true)
	case msgs.RunCommandMsg:
		return m.handleCommand(msg)
	}
	return m, nil
}

// ordering holds submissions that arrived before their turn. It sits behind
// a pointer in the model: only Update touches it.
type ordering struct {
	next uint64
	held map[uint64]msgs.Submission
}
