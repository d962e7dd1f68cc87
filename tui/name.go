package tui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/tui/msgs"
)

// nameSessionMsg is /name: name the current session, or, without a name,
// ask for one in the editor.
type nameSessionMsg struct{ name string }

// sessionNamedMsg is the runtime's answer: the name as saved ("" when
// removed).
type sessionNamedMsg struct{ name string }

func (n sessionNamedMsg) note() string {
	if n.name == "" {
		return "session name removed"
	}
	return "session named: " + n.name
}

// handleNameSession saves the name, or, for a bare /name, puts "/name " in
// the editor for the user to finish: the editor is the prompt.
func (m Model) handleNameSession(msg nameSessionMsg) (Model, tea.Cmd) {
	if m.sessions == nil {
		return m.hint("saved sessions are not available")
	}
	if msg.name == "" {
		m.input.SetValue("/name ")
		return m.hint("type the session's name after /name and press Enter")
	}
	sessions, name := m.sessions, msg.name
	m.calls.submit(call{run: func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
		defer cancel()
		saved, err := sessions.RenameSession(ctx, "", name)
		if err != nil {
			return msgs.ErrorMsg{Action: "name the session", Err: err}
		}
		return sessionNamedMsg{name: saved}
	}})
	return m, nil
}
