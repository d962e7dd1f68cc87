package tui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/tui/dialog"
	"github.com/steer-tui/steer/tui/input"
)

// guardTickMsg comes when the pause of the question on top should end, so
// that its note goes away although no key came.
type guardTickMsg struct{ at time.Time }

// typedAhead reports whether key msg, received at now after the previous
// key at prev, was typed ahead of the question on top: such a key never
// answers it (dialog.Deliberate) but goes to the editor. Esc is no text and
// answers at once (it denies); Ctrl+C is the root's.
func (m Model) typedAhead(msg tea.KeyMsg, prev, now time.Time) bool {
	n := len(m.dialogs)
	if n == 0 || !m.dialogs[n-1].Guarded() || msg.Type == tea.KeyEsc {
		return false
	}
	return !dialog.Deliberate(m.dialogs[n-1].Shown(), prev, now, input.Burst(msg) || msg.Paste)
}

// typeThrough gives a key typed ahead of a question to the editor, as if the
// question were not there: text, editing keys and Enter, which sends what
// was typed.
func (m Model) typeThrough(msg tea.KeyMsg) (Model, tea.Cmd) {
	m = m.setFocus(focusInput)
	if !m.input.Wants(msg) {
		return m, nil
	}
	return m.editorKey(msg)
}

// editorKey gives a key the editor wants to it: a send goes to its route,
// anything else edits.
func (m Model) editorKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	if req, ok := m.input.Submit(msg); ok {
		m = m.savePrompt()
		if req == nil {
			return m, nil
		}
		return m.route(req)
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return m, cmd
}

// settleGuard stamps the question that came on top with the time it did and
// says whether it ignores keys now.
func (m *Model) settleGuard() {
	n := len(m.dialogs)
	if n == 0 {
		return
	}
	top := &m.dialogs[n-1]
	now := m.opts.Now()
	if top.Shown().IsZero() {
		top.SetShown(now)
	}
	top.SetPaused(top.Guarded() && now.Before(dialog.PausedUntil(top.Shown(), m.lastKey)))
}

// guardTick schedules the end of the pause of the question on top, once
// per end.
func (m *Model) guardTick() tea.Cmd {
	n := len(m.dialogs)
	if n == 0 || !m.dialogs[n-1].Guarded() {
		return nil
	}
	until := dialog.PausedUntil(m.dialogs[n-1].Shown(), m.lastKey)
	if !m.opts.Now().Before(until) || until.Equal(m.pauseEnds) {
		return nil
	}
	m.pauseEnds = until
	wait := until.Sub(m.opts.Now())
	return tea.Tick(wait, func(time.Time) tea.Msg { return guardTickMsg{at: until} })
}
