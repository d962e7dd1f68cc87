package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// refresh settles what depends on the whole model after every message: which
// bindings apply, the sizes of the panes and the help line. Children skip
// work when their size did not change.
func (m *Model) refresh() {
	m.syncKeys()
	w, h := max(m.width, 1), max(m.height, 1)
	m.status.SetSize(w)
	m.input.SetSize(w, min(max(h/4, 1), 5))
	m.queue.SetSize(w, min(max(h/6, 1), 4))
	m.todos.SetSize(w, min(max(h/4, 2), todoRows))
	chatHeight := max(h-m.input.Height()-m.queue.Height()-m.todos.Height()-m.status.Height()-1, 1)
	m.chat.SetSize(w, chatHeight)
	m.settleGuard()
	for i := range m.dialogs {
		m.dialogs[i].SetSize(w, chatHeight)
	}
	if m.inspecting {
		m.inspector.SetSize(w, chatHeight)
	}
	if m.treeOpen {
		m.tree.SetSize(w, chatHeight)
	}
	m.refreshHelp(w)
}

// refreshHelp rebuilds the help line when the bindings it shows changed.
func (m *Model) refreshHelp(width int) {
	var sig strings.Builder
	bindings := m.ShortHelp()
	for _, b := range bindings {
		if b.Enabled() {
			sig.WriteString(b.Help().Key + "\x00" + b.Help().Desc + "\x00")
		}
	}
	sig.WriteString(strings.Repeat("|", width))
	if sig.String() == m.helpSig {
		return
	}
	m.helpSig = sig.String()
	m.help.Width = width
	// bubbles' help adds an item that overflows when its "…" would not
	// fit either, so the line is cut to the width again.
	m.helpLine = ansi.Truncate(m.help.ShortHelpView(bindings), width, "…")
}

// todoRows is the most rows the pinned todo list takes, its header included.
const todoRows = 8

// View joins the panes' cached strings: transcript (or the open dialog or
// inspector), the pinned todo list, queue strip, editor, status bar and help line.
func (m Model) View() string {
	top := m.chat.View()
	switch n := len(m.dialogs); {
	case n > 0:
		top = m.dialogs[n-1].View()
	case m.treeOpen:
		top = m.tree.View()
	case m.inspecting:
		top = overlay(m.inspector.View(), top)
	}
	parts := make([]string, 0, 6)
	parts = append(parts, top)
	if t := m.todos.View(); t != "" {
		parts = append(parts, t)
	}
	if q := m.queue.View(); q != "" {
		parts = append(parts, q)
	}
	parts = append(parts, m.input.View(), m.status.View(), m.helpLine)
	return strings.Join(parts, "\n")
}

// overlay draws box over the top lines of under, which show below it.
func overlay(box, under string) string {
	b, u := strings.Split(box, "\n"), strings.Split(under, "\n")
	if len(b) >= len(u) {
		return strings.Join(b[:len(u)], "\n")
	}
	return strings.Join(append(b, u[len(b):]...), "\n")
}
