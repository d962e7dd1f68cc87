package form

import "github.com/charmbracelet/bubbles/key"

// KeyMap is a form's bindings. Submit, Decline and Cancel are its owner's
// to match (the dialog that holds it); the others move and change fields.
// A text field takes every other key as typing.
type KeyMap struct {
	Next, Prev              key.Binding
	Left, Right             key.Binding // a choice's previous and next value
	Toggle                  key.Binding // checks or unchecks a multi-select's value
	Submit, Decline, Cancel key.Binding
}

// DefaultKeyMap returns the default form bindings: Enter submits from any
// field, as Ctrl+S does.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Next:    key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab/↓", "next field")),
		Prev:    key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab/↑", "previous field")),
		Left:    key.NewBinding(key.WithKeys("left"), key.WithHelp("←", "previous value")),
		Right:   key.NewBinding(key.WithKeys("right", " "), key.WithHelp("→/space", "next value")),
		Toggle:  key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "check/uncheck")),
		Submit:  key.NewBinding(key.WithKeys("enter", "ctrl+s"), key.WithHelp("enter/ctrl+s", "submit")),
		Decline: key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "decline")),
		Cancel:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}

// ShortHelp returns the bindings for the help line.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Submit, k.Next, k.Toggle, k.Right, k.Decline, k.Cancel}
}

// FullHelp returns every binding, grouped.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Next, k.Prev, k.Left, k.Right, k.Toggle}, {k.Submit, k.Decline, k.Cancel}}
}
