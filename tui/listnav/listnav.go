// Package listnav moves a selection over a list: the keys (↑/↓, PgUp/PgDn,
// Home/End) and the arithmetic, written once for the dialogs, the
// inspectors and the session tree.
package listnav

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// KeyMap is the bindings that move a selection. A component embeds it in
// its own KeyMap, so that its fields read k.Up, and may add keys to them
// (the inspectors' k and j).
type KeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
}

// DefaultKeyMap returns the default moving bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "first")),
		Bottom:   key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "last")),
	}
}

// Bindings lists the moving bindings, for help.
func (k KeyMap) Bindings() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
}

// Move returns where selection sel goes on msg in a list of n items, of
// which page show at once; ok is false (and sel comes back as it was) when
// msg is none of k's keys. The result is always within the list (0 for an
// empty one), so a caller may also use Move to clamp after the list shrank.
func (k KeyMap) Move(sel, n, page int, msg tea.KeyMsg) (next int, ok bool) {
	page = max(page, 1)
	switch {
	case key.Matches(msg, k.Up):
		sel--
	case key.Matches(msg, k.Down):
		sel++
	case key.Matches(msg, k.PageUp):
		sel -= page
	case key.Matches(msg, k.PageDown):
		sel += page
	case key.Matches(msg, k.Top):
		sel = 0
	case key.Matches(msg, k.Bottom):
		sel = n - 1
	default:
		return sel, false
	}
	return Clamp(sel, n), true
}

// Clamp returns sel moved into a list of n items (0 for an empty one).
func Clamp(sel, n int) int { return min(max(sel, 0), max(n-1, 0)) }
