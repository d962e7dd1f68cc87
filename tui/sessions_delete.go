package tui

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/tui/dialog"
	"github.com/steer-tui/steer/tui/msgs"
)

// askDeleteSessionMsg is the picker's delete key on a session: ask first.
type askDeleteSessionMsg struct {
	id, title string
	messages  int
}

// deleteSessionMsg is the user's confirmation; sessionDeletedMsg the
// runtime's answer.
type (
	deleteSessionMsg  struct{ id string }
	sessionDeletedMsg struct{ id string }
)

// handleAskDeleteSession asks before deleting a saved session: nothing the
// user wrote goes without their saying so. The current session is refused
// at once (the runtime would refuse it too).
func (m Model) handleAskDeleteSession(msg askDeleteSessionMsg) (Model, tea.Cmd) {
	if msg.id == m.sessionID {
		return m.hint("the current session cannot be deleted: resume or start another first")
	}
	title := msg.title
	if title == "" {
		title = "(untitled)"
	}
	text := fmt.Sprintf("%s · %s\nIts transcript, queue and runs are removed from disk; this cannot be undone.",
		msg.id, plural(msg.messages, "message"))
	items := []dialog.Item{
		{Label: "Delete it", Shortcut: "y", Msg: deleteSessionMsg{id: msg.id}},
		{Label: "Keep it", Shortcut: "n"},
	}
	return m.openDialog(dialog.NewQuestion(m.dialogDeps(), "Delete the session “"+title+"”?", text, items, nil)), nil
}

// handleDeleteSession deletes the session the user confirmed.
func (m Model) handleDeleteSession(msg deleteSessionMsg) (Model, tea.Cmd) {
	if m.sessions == nil {
		return m.hint("saved sessions are not available")
	}
	sessions, id := m.sessions, msg.id
	m.calls.submit(call{run: func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
		defer cancel()
		if err := sessions.DeleteSession(ctx, id); err != nil {
			return msgs.ErrorMsg{Action: "delete session " + id, Err: err}
		}
		return sessionDeletedMsg{id: id}
	}})
	return m, nil
}

// handleSessionDeleted says so and lists the picker's sessions again, for
// the query it shows.
func (m Model) handleSessionDeleted(msg sessionDeletedMsg) (Model, tea.Cmd) {
	m, cmd := m.hint("deleted session " + msg.id)
	if i := m.dialogIndex(sessionPickerTag); i >= 0 {
		var list tea.Cmd
		m, list = m.handleSessionQuery(m.dialogs[i].Query())
		return m, tea.Batch(cmd, list)
	}
	return m, cmd
}
