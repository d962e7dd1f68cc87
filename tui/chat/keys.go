package chat

import "github.com/charmbracelet/bubbles/key"

// KeyMap is the chat's bindings while it has the focus.
type KeyMap struct {
	Prev, Next       key.Binding // select the previous / next expandable block
	Toggle           key.Binding // expand or collapse the selected block
	Top, Bottom      key.Binding
	LineUp, LineDown key.Binding
	Copy             key.Binding // copy the selected item (copy.go)
}

// DefaultKeyMap returns the chat's default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Prev:     key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "previous block")),
		Next:     key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "next block")),
		Toggle:   key.NewBinding(key.WithKeys("enter", " "), key.WithHelp("enter", "expand/collapse")),
		Top:      key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "top")),
		Bottom:   key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "bottom")),
		LineUp:   key.NewBinding(key.WithKeys("shift+up"), key.WithHelp("shift+↑", "scroll line up")),
		LineDown: key.NewBinding(key.WithKeys("shift+down"), key.WithHelp("shift+↓", "scroll line down")),
		Copy:     key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy")),
	}
}

// ShortHelp returns the bindings for the help line.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Prev, k.Next, k.Toggle, k.Copy} }

// FullHelp returns every binding, grouped.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Prev, k.Next, k.Toggle, k.Copy}, {k.Top, k.Bottom, k.LineUp, k.LineDown}}
}

// Keys returns the chat's bindings, for help.
func (m Model) Keys() KeyMap { return m.d.Keys }
