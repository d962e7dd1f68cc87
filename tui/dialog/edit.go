package dialog

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/tui/msgs"
)

// WithEdit returns the question with an edit request: the Edit key (Ctrl+G)
// closes it and sends msg, as choosing an item does, so that its owner can
// hand what the question is about to the user's editor and ask again.
func (m Model) WithEdit(msg tea.Msg) Model {
	m.edit = msg
	m.keys.Edit.SetEnabled(msg != nil)
	return m
}

// editKey sends the edit request for k when k is the Edit key.
func (m Model) editKey(k tea.KeyMsg) (tea.Cmd, bool) {
	if m.edit == nil || !key.Matches(k, m.keys.Edit) {
		return nil, false
	}
	edit := m.edit
	return tea.Sequence(func() tea.Msg { return msgs.CloseDialogMsg{} }, func() tea.Msg { return edit }), true
}
