package tui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/tui/msgs"
)

// A long session opens with what its model sees and its latest compaction
// (so that its first frame does not wait for thousands of entries); the
// saved history above is read next, on the reads lane, and the chat puts it
// above what it shows. Only the latest load's read counts (topicEarlier).

// handleLoaded shows a session and asks for the saved history it was loaded
// without, if any.
func (m Model) handleLoaded(msg msgs.SessionLoadedMsg) (Model, tea.Cmd) {
	m, cmd := m.handleSessionLoaded(msg)
	m = m.planLoaded(msg)
	if msg.EarlierSaved == "" {
		return m, cmd
	}
	rt, id, before := m.rt, msg.SessionID, msg.EarlierSaved
	m.latest[topicEarlier] = m.calls.submit(call{topic: topicEarlier, run: func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
		defer cancel()
		entries, err := rt.SavedEarlier(ctx, id, before)
		return msgs.EarlierLoadedMsg{SessionID: id, Before: before, Entries: entries, Err: err}
	}})
	return m, cmd
}

// handleEarlierLoaded hands the chat the saved history of the session it
// shows.
func (m Model) handleEarlierLoaded(msg msgs.EarlierLoadedMsg) (Model, tea.Cmd) {
	if msg.SessionID != m.sessionID {
		return m, nil
	}
	m.chat, _ = m.chat.Update(msg)
	return m, nil
}
