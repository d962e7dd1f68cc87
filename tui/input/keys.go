package input

import "github.com/charmbracelet/bubbles/key"

// KeyMap is the editor's bindings: sending, and the completion list while it
// is open. The root enables or disables them through the model's state.
type KeyMap struct {
	Send     key.Binding // steer while a run is active, else prompt
	FollowUp key.Binding
	Newline  key.Binding
	// Complete, CompletePrev, CompleteNext and Dismiss work the list of
	// slash commands shown while a command is typed.
	Complete, CompletePrev, CompleteNext, Dismiss key.Binding
}

// DefaultKeyMap returns the editor's default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Send:         key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		FollowUp:     key.NewBinding(key.WithKeys("alt+enter"), key.WithHelp("alt+enter", "follow-up")),
		Newline:      key.NewBinding(key.WithKeys("ctrl+j"), key.WithHelp("ctrl+j", "newline")),
		Complete:     key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete"), key.WithDisabled()),
		CompletePrev: key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "previous"), key.WithDisabled()),
		CompleteNext: key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "next"), key.WithDisabled()),
		Dismiss:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close list"), key.WithDisabled()),
	}
}

// ShortHelp returns the bindings for the help line.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Complete, k.Dismiss, k.Send, k.FollowUp, k.Newline}
}

// FullHelp returns every binding, grouped.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Send, k.FollowUp, k.Newline}, {k.Complete, k.CompletePrev, k.CompleteNext, k.Dismiss}}
}

// EditKeyMap is the text-editing bindings. They are listed in the full help
// but not on the help line.
type EditKeyMap struct {
	Left, Right, Up, Down          key.Binding
	WordLeft, WordRight            key.Binding
	Home, End                      key.Binding
	Backspace, Delete              key.Binding
	DeleteWord, KillStart, KillEnd key.Binding
}

// DefaultEditKeyMap returns the usual readline-style editing keys.
func DefaultEditKeyMap() EditKeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return EditKeyMap{
		Left: b("←", "left", "left", "ctrl+b"), Right: b("→", "right", "right", "ctrl+f"),
		Up: b("↑", "line up", "up"), Down: b("↓", "line down", "down"),
		WordLeft:  b("alt+←", "word left", "alt+left", "ctrl+left", "alt+b"),
		WordRight: b("alt+→", "word right", "alt+right", "ctrl+right", "alt+f"),
		Home:      b("ctrl+a", "line start", "home", "ctrl+a"), End: b("ctrl+e", "line end", "end", "ctrl+e"),
		Backspace:  b("backspace", "delete left", "backspace", "ctrl+h"),
		Delete:     b("delete", "delete right", "delete", "ctrl+d"),
		DeleteWord: b("ctrl+w", "delete word", "ctrl+w", "alt+backspace"),
		KillStart:  b("ctrl+u", "delete to line start", "ctrl+u"),
		KillEnd:    b("ctrl+k", "delete to line end", "ctrl+k"),
	}
}

// Bindings lists every editing binding.
func (k EditKeyMap) Bindings() []key.Binding {
	return []key.Binding{k.Left, k.Right, k.Up, k.Down, k.WordLeft, k.WordRight, k.Home, k.End,
		k.Backspace, k.Delete, k.DeleteWord, k.KillStart, k.KillEnd}
}
