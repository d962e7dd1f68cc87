package input

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
)

// KeyMap is the editor's bindings: sending, and the completion list while it
// is open. The root enables or disables them through the model's state.
type KeyMap struct {
	Send     key.Binding // steer while a run is active, else prompt
	FollowUp key.Binding
	Newline  key.Binding // drives the textarea's InsertNewline
	External key.Binding // the text in $VISUAL / $EDITOR (external.go)
	// Complete, CompletePrev, CompleteNext and Dismiss work the list of
	// slash commands shown while a command is typed, and the list of files
	// shown after an "@".
	Complete, CompletePrev, CompleteNext, Dismiss key.Binding
	History                                       HistoryKeyMap
	// Detach removes the newest attachment chip, while there is one.
	Detach key.Binding
}

// DefaultKeyMap returns the editor's default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Send:         key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		FollowUp:     key.NewBinding(key.WithKeys("alt+enter"), key.WithHelp("alt+enter", "follow-up")),
		Newline:      key.NewBinding(key.WithKeys("ctrl+j"), key.WithHelp("ctrl+j", "newline")),
		External:     key.NewBinding(key.WithKeys("ctrl+g"), key.WithHelp("ctrl+g", "edit in $EDITOR")),
		Complete:     key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete"), key.WithDisabled()),
		CompletePrev: key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "previous"), key.WithDisabled()),
		CompleteNext: key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "next"), key.WithDisabled()),
		Dismiss:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close list"), key.WithDisabled()),
		History:      DefaultHistoryKeyMap(),
		Detach:       key.NewBinding(key.WithKeys("ctrl+x"), key.WithHelp("ctrl+x", "remove attachment"), key.WithDisabled()),
	}
}

// ShortHelp returns the bindings for the help line.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Complete, k.Dismiss, k.Detach, k.Send, k.FollowUp, k.Newline}
}

// FullHelp returns every binding, grouped.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Send, k.FollowUp, k.Newline, k.External, k.Detach}, {k.Complete, k.CompletePrev, k.CompleteNext, k.Dismiss},
		k.History.Bindings()}
}

// EditKeyMap is the text-editing bindings, which the textarea carries out.
// They are listed in the full help but not on the help line. The textarea's
// Ctrl+T (transpose) is left out: Ctrl+T is the global thinking toggle.
type EditKeyMap struct {
	Left, Right, Up, Down        key.Binding
	WordLeft, WordRight          key.Binding
	Home, End, Top, Bottom       key.Binding
	Backspace, Delete            key.Binding
	DeleteWord, DeleteWordRight  key.Binding
	KillStart, KillEnd           key.Binding
	Upcase, Downcase, Capitalize key.Binding
	Paste                        key.Binding // the system clipboard; terminal pastes need no key
}

// DefaultEditKeyMap returns the usual readline-style editing keys.
func DefaultEditKeyMap() EditKeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return EditKeyMap{
		Left: b("←", "left", "left", "ctrl+b"), Right: b("→", "right", "right", "ctrl+f"),
		Up: b("↑", "line up", "up", "ctrl+p"), Down: b("↓", "line down", "down", "ctrl+n"),
		WordLeft:  b("alt+←", "word left", "alt+left", "ctrl+left", "alt+b"),
		WordRight: b("alt+→", "word right", "alt+right", "ctrl+right", "alt+f"),
		Home:      b("ctrl+a", "line start", "home", "ctrl+a"), End: b("ctrl+e", "line end", "end", "ctrl+e"),
		Top:             b("alt+<", "text start", "alt+<", "ctrl+home"),
		Bottom:          b("alt+>", "text end", "alt+>", "ctrl+end"),
		Backspace:       b("backspace", "delete left", "backspace", "ctrl+h"),
		Delete:          b("delete", "delete right", "delete", "ctrl+d"),
		DeleteWord:      b("ctrl+w", "delete word", "ctrl+w", "alt+backspace"),
		DeleteWordRight: b("alt+d", "delete word right", "alt+d", "alt+delete"),
		KillStart:       b("ctrl+u", "delete to line start", "ctrl+u"),
		KillEnd:         b("ctrl+k", "delete to line end", "ctrl+k"),
		Upcase:          b("alt+u", "uppercase word", "alt+u"),
		Downcase:        b("alt+l", "lowercase word", "alt+l"),
		Capitalize:      b("alt+c", "capitalize word", "alt+c"),
		Paste:           b("ctrl+v", "paste clipboard", "ctrl+v"),
	}
}

// Bindings lists every editing binding.
func (k EditKeyMap) Bindings() []key.Binding {
	return []key.Binding{k.Left, k.Right, k.Up, k.Down, k.WordLeft, k.WordRight, k.Home, k.End,
		k.Top, k.Bottom, k.Backspace, k.Delete, k.DeleteWord, k.DeleteWordRight, k.KillStart, k.KillEnd,
		k.Upcase, k.Downcase, k.Capitalize, k.Paste}
}

// textarea hands the bindings to the textarea, with newline as its
// InsertNewline; what is not listed (transpose) stays unbound.
func (k EditKeyMap) textarea(newline key.Binding) textarea.KeyMap {
	return textarea.KeyMap{
		CharacterBackward: k.Left, CharacterForward: k.Right,
		LinePrevious: k.Up, LineNext: k.Down,
		WordBackward: k.WordLeft, WordForward: k.WordRight,
		LineStart: k.Home, LineEnd: k.End, InputBegin: k.Top, InputEnd: k.Bottom,
		DeleteCharacterBackward: k.Backspace, DeleteCharacterForward: k.Delete,
		DeleteWordBackward: k.DeleteWord, DeleteWordForward: k.DeleteWordRight,
		DeleteBeforeCursor: k.KillStart, DeleteAfterCursor: k.KillEnd,
		UppercaseWordForward: k.Upcase, LowercaseWordForward: k.Downcase, CapitalizeWordForward: k.Capitalize,
		Paste:         k.Paste,
		InsertNewline: newline,
	}
}
