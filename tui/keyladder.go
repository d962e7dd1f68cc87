package tui

import (
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/tui/input"
	"github.com/steer-tui/steer/tui/msgs"
)

// quitWindow is how soon a second Ctrl+C must follow the first to quit.
const quitWindow = time.Second

// handleKey sends a key up a fixed ladder; the first rung that takes it
// handles it:
//
//  0. A burst of text (input.Burst: several runes in one message) is text
//     whatever it spells, so no binding is ever matched against it: the
//     editor takes it, focusing it; an open dialog or inspector drops it. A
//     late answer of the terminal to the start-up colour query is dropped
//     too.
//  1. Ctrl+C, always: it clears the editor (closing a dialog or an
//     inspector), and twice within a second quits, so no state can trap
//     the user.
//  2. The open dialog takes every other key, else the open inspector does
//     (a question asked from an inspector is a dialog above it). A question
//     that one key answers (an approval, a clear) ignores keys typed ahead
//     (typedAhead: within dialog.TypeAheadPause of its opening or of the
//     previous key, or in a burst): they go to the editor as typed, rung 0
//     before everything but Ctrl+C; Esc still denies at once.
//  3. The editor, while focused, takes text and its own bindings
//     (input.Model.Wants); its sending keys are turned into requests at
//     once (input.Model.Submit), so that they are handled in the order they
//     were typed. Typing "q" or "j" is never a command.
//  4. Global bindings: interrupt (from the editor), back to the editor
//     (from another pane), take back, scroll, toggles, focus, mouse, the
//     inspector the status badge is about, plan mode.
//  5. The focused pane (transcript or queue); any other printable key there
//     goes to the editor, which takes the focus.
//
// Every key also clears the status bar's hint.
func (m Model) handleKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	if m.lateReply(msg) { // rung 0
		return m, nil
	}
	now, prev := m.opts.Now(), m.lastKey
	m.lastKey = now
	m.status.ClearHint()
	k := m.keys
	if m.typedAhead(msg, prev, now) && !key.Matches(msg, k.Quit) {
		return m.typeThrough(msg)
	}
	if input.Burst(msg) {
		if n := len(m.dialogs); n > 0 && m.dialogs[n-1].TakesText() { // typed fast into a search or a form: its text
			var cmd tea.Cmd
			m.dialogs[n-1], cmd = m.dialogs[n-1].Update(msg)
			return m, cmd
		}
		if len(m.dialogs) == 0 && m.treeOpen && m.tree.Editing() { // typed fast into the tree's search or label
			var cmd tea.Cmd
			m.tree, cmd = m.tree.Update(msg)
			return m, cmd
		}
		if len(m.dialogs) > 0 || m.inspecting || m.treeOpen {
			return m, nil
		}
		return m.handleFocusEditor(msg.Runes)
	}
	if key.Matches(msg, k.Quit) {
		return m.handleCtrlC()
	}
	if n := len(m.dialogs); n > 0 {
		var cmd tea.Cmd
		m.dialogs[n-1], cmd = m.dialogs[n-1].Update(msg)
		return m, cmd
	}
	if m.treeOpen {
		var cmd tea.Cmd
		m.tree, cmd = m.tree.Update(msg)
		return m, cmd
	}
	if m.inspecting {
		// Closing is the root's, at once: keys typed right after Esc
		// reach the editor, not an inspector about to close.
		if key.Matches(msg, m.inspector.Keys().Close) {
			return m.handleCloseInspector()
		}
		var cmd tea.Cmd
		m.inspector, cmd = m.inspector.Update(msg)
		return m, cmd
	}
	if m.focus == focusInput && m.input.Wants(msg) {
		return m.editorKey(msg)
	}
	switch {
	case key.Matches(msg, k.Abort):
		return m.handleAbort()
	case key.Matches(msg, k.Back):
		return m.setFocus(focusInput), nil
	case key.Matches(msg, k.TakeBack):
		return m.handleTakeBack("")
	case key.Matches(msg, k.PageUp):
		return m.updateChat(msgs.ScrollMsg{Pages: -1})
	case key.Matches(msg, k.PageDown):
		return m.updateChat(msgs.ScrollMsg{Pages: 1})
	case key.Matches(msg, k.ToggleTools):
		return m.updateChat(msgs.ToggleToolsMsg{})
	case key.Matches(msg, k.ToggleThinking):
		return m.updateChat(msgs.ToggleThinkingMsg{})
	case key.Matches(msg, k.FocusNext):
		return m.cycleFocus(1), nil
	case key.Matches(msg, k.FocusPrev):
		return m.cycleFocus(-1), nil
	case key.Matches(msg, k.Mouse):
		return m.handleToggleMouse()
	case key.Matches(msg, k.Inspect):
		return m.handleInspectKey()
	case key.Matches(msg, k.PlanMode):
		return m.handleSetPlan(planToggle)
	case key.Matches(msg, k.ToggleTodo):
		m.todos, _ = m.todos.Update(msgs.ToggleTodoMsg{})
		return m, nil
	}
	return m.handlePaneKey(msg)
}

// handlePaneKey gives a key to the focused pane, or the editor when the pane
// has no use for it and it is text.
func (m Model) handlePaneKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	switch {
	case m.focus == focusChat && key.Matches(msg, bindings(m.chat.Keys().FullHelp())...):
		m.chat, cmd = m.chat.Update(msg)
	case m.focus == focusQueue && key.Matches(msg, m.queue.Keys().ShortHelp()...):
		m.queue, cmd = m.queue.Update(msg)
	case m.focus != focusInput && msg.Type == tea.KeyRunes && !msg.Alt:
		return m.handleFocusEditor(msg.Runes)
	}
	return m, cmd
}

func bindings(groups [][]key.Binding) []key.Binding {
	var all []key.Binding
	for _, g := range groups {
		all = append(all, g...)
	}
	return all
}

// handleCtrlC clears the editor; a second press within quitWindow quits.
func (m Model) handleCtrlC() (Model, tea.Cmd) {
	now := m.opts.Now()
	if !m.lastCtrlC.IsZero() && now.Sub(m.lastCtrlC) <= quitWindow {
		return m.handleQuit()
	}
	m.lastCtrlC = now
	var cancel tea.Cmd
	switch {
	case len(m.dialogs) > 0:
		if c := m.dialogs[len(m.dialogs)-1].FormCancel(); c != nil { // a server waits for its answer
			cancel = func() tea.Msg { return c }
		}
		m = m.closeDialog()
	case m.inspecting:
		m, _ = m.handleCloseInspector()
	}
	m.input.Reset()
	m, hint := m.updateStatus(msgs.HintMsg{Text: fmt.Sprintf("press %s again to quit", m.keys.Quit.Help().Key), For: quitWindow})
	return m, tea.Batch(hint, cancel)
}

func (m Model) handleMouse(msg tea.MouseMsg) (Model, tea.Cmd) {
	if len(m.dialogs) > 0 || m.inspecting || msg.Action != tea.MouseActionPress {
		return m, nil
	}
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		return m.updateChat(msgs.ScrollMsg{Lines: -3})
	case tea.MouseButtonWheelDown:
		return m.updateChat(msgs.ScrollMsg{Lines: 3})
	}
	return m, nil
}

// setFocus moves the keys to pane f.
func (m Model) setFocus(f focusArea) Model {
	if f == focusQueue && len(m.queue.Items()) == 0 {
		f = focusInput
	}
	m.input.Blur()
	m.chat.Blur()
	m.queue.Blur()
	m.focus = f
	switch f {
	case focusInput:
		m.input.Focus()
	case focusChat:
		m.chat.Focus()
	case focusQueue:
		m.queue.Focus()
	}
	return m
}

// cycleFocus moves the focus through editor, transcript and queue (when
// anything is queued).
func (m Model) cycleFocus(step int) Model {
	order := []focusArea{focusInput, focusChat}
	if len(m.queue.Items()) > 0 {
		order = append(order, focusQueue)
	}
	i := 0
	for j, f := range order {
		if f == m.focus {
			i = j
		}
	}
	return m.setFocus(order[(i+step+len(order))%len(order)])
}

func (m Model) handleFocusEditor(runes []rune) (Model, tea.Cmd) {
	m = m.setFocus(focusInput)
	if len(runes) == 0 {
		return m, nil
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: runes})
	return m, cmd
}

func (m Model) handleToggleMouse() (Model, tea.Cmd) {
	m.mouse = !m.mouse
	if m.mouse {
		m, _ = m.hint("mouse on: the wheel scrolls; alt+m turns it off to select text")
		return m, tea.EnableMouseCellMotion
	}
	m, _ = m.hint("mouse off: select and copy text with the terminal")
	return m, tea.DisableMouse
}

func (m Model) hint(text string) (Model, tea.Cmd) {
	return m.updateStatus(msgs.HintMsg{Text: text})
}
