package tui

import (
	"github.com/charmbracelet/bubbles/key"
)

// KeyMap is the root's global bindings. Which of them apply depends on the
// state (a run, the queue, the focus); syncKeys enables them accordingly, so
// help and matching always agree.
type KeyMap struct {
	Quit           key.Binding // clears the editor; twice within a second quits
	Abort          key.Binding // from the editor, while a run is active
	Back           key.Binding // from another pane to the editor
	TakeBack       key.Binding // the newest queued item into the editor
	PageUp         key.Binding
	PageDown       key.Binding
	ToggleTools    key.Binding
	ToggleThinking key.Binding
	FocusNext      key.Binding
	FocusPrev      key.Binding
	Mouse          key.Binding
	Inspect        key.Binding // while the status badge shows: its inspector
	ToggleTodo     key.Binding // while a todo list is pinned: fold or unfold it
	PlanMode       key.Binding // plan mode on or off (plan.go)
}

// DefaultKeyMap returns the default global bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Quit:           key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "clear/quit")),
		Abort:          key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "interrupt")),
		Back:           key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to editor")),
		TakeBack:       key.NewBinding(key.WithKeys("alt+up"), key.WithHelp("alt+↑", "edit queued")),
		PageUp:         key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "scroll up")),
		PageDown:       key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "scroll down")),
		ToggleTools:    key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "expand tools")),
		ToggleThinking: key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "thinking")),
		FocusNext:      key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		FocusPrev:      key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Mouse:          key.NewBinding(key.WithKeys("alt+m"), key.WithHelp("alt+m", "mouse scroll")),
		Inspect:        key.NewBinding(key.WithKeys("alt+i"), key.WithHelp("alt+i", "inspect")),
		ToggleTodo:     key.NewBinding(key.WithKeys("alt+t"), key.WithHelp("alt+t", "fold todo list")),
		PlanMode:       key.NewBinding(key.WithKeys("alt+p"), key.WithHelp("alt+p", "plan mode")),
	}
}

// all returns every global binding.
func (k KeyMap) all() []key.Binding {
	return []key.Binding{k.Quit, k.Abort, k.Back, k.TakeBack, k.PageUp, k.PageDown,
		k.ToggleTools, k.ToggleThinking, k.FocusNext, k.FocusPrev, k.Mouse, k.Inspect, k.ToggleTodo, k.PlanMode}
}

// syncKeys enables the bindings that apply now.
func (m *Model) syncKeys() {
	k := &m.keys
	dialog := len(m.dialogs) > 0 || m.inspecting || m.treeOpen
	popup := m.focus == focusInput && (m.input.PopupOpen() || m.input.Searching())
	// Esc interrupts only from the editor; in another pane it first brings
	// the focus back, and the help line says a second one interrupts.
	k.Abort.SetEnabled((m.running || m.compaction != nil) && !dialog && !popup && m.focus == focusInput)
	k.Back.SetEnabled(!dialog && m.focus != focusInput)
	if m.running {
		k.Back.SetHelp(k.Back.Help().Key, "to editor, again to interrupt")
	} else {
		k.Back.SetHelp(k.Back.Help().Key, "back to editor")
	}
	// Items come back one at a time, each keeping its kind.
	k.TakeBack.SetEnabled(len(m.queue.Items()) > 0 && !dialog && m.input.Holding() == "")
	k.FocusNext.SetEnabled(!dialog && !popup)
	k.FocusPrev.SetEnabled(!dialog && !popup)
	for _, b := range []*key.Binding{&k.PageUp, &k.PageDown, &k.ToggleTools, &k.ToggleThinking, &k.Mouse, &k.PlanMode} {
		b.SetEnabled(!dialog)
	}
	k.Inspect.SetEnabled(!dialog && m.status.Badge() != "")
	k.ToggleTodo.SetEnabled(!dialog && len(m.todos.List().Items) > 0)
	if m.mouse {
		k.Mouse.SetHelp(k.Mouse.Help().Key, "mouse off (select text)")
	} else {
		k.Mouse.SetHelp(k.Mouse.Help().Key, "mouse scroll")
	}
}

// ShortHelp is the help line: the bindings of whatever has the keys, then
// the global ones that apply, most useful first (the line is cut to fit).
func (m Model) ShortHelp() []key.Binding {
	k := m.keys
	if n := len(m.dialogs); n > 0 {
		return append(m.dialogs[n-1].ShortHelp(), k.Quit)
	}
	if m.treeOpen {
		return append(m.tree.Keys().ShortHelp(), k.Quit)
	}
	if m.inspecting {
		return append(m.inspector.Keys().ShortHelp(), k.Quit)
	}
	switch m.focus {
	case focusChat:
		return append([]key.Binding{k.Back}, append(m.chat.Keys().ShortHelp(), k.TakeBack, k.ToggleTools, k.FocusNext, k.Quit)...)
	case focusQueue:
		return append([]key.Binding{k.Back}, append(m.queue.Keys().ShortHelp(), k.FocusNext, k.Quit)...)
	}
	in := m.input.Keys()
	hk := in.History
	return []key.Binding{hk.Take, hk.Older, hk.Cancel, in.Complete, in.Dismiss, in.Send, in.FollowUp, k.Abort, k.Inspect,
		k.TakeBack, in.Newline, hk.Prev, hk.Next, hk.Search, k.ToggleTools, k.ToggleTodo, in.External, k.FocusNext, k.PageUp, k.Quit}
}

// FullHelp is every binding, for the help dialog.
func (m Model) FullHelp() [][]key.Binding {
	k := m.keys
	groups := [][]key.Binding{
		{k.Quit, k.Abort, k.TakeBack, k.PageUp, k.PageDown},
		{k.ToggleTools, k.ToggleThinking, k.FocusNext, k.FocusPrev, k.Mouse, k.Inspect, k.ToggleTodo, k.PlanMode},
	}
	groups = append(groups, m.input.Keys().FullHelp()...)
	groups = append(groups, m.chat.Keys().FullHelp()...)
	return append(groups, m.queue.Keys().FullHelp()...)
}
