package inspect

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/steer-tui/steer/tui/listnav"
)

// KeyMap is an inspector's bindings. Which apply depends on the table and
// the selected row (see syncKeys): Clear only on a row that has something
// to clear, Older and Newer only while there are pages (the trace's runs),
// Prefer and Lock only on a row with a Choice (a profile), Restart and
// Login only on a row with a Server (an MCP server; Login on a remote
// one).
type KeyMap struct {
	listnav.KeyMap
	Older, Newer   key.Binding
	Clear, Close   key.Binding
	Prefer, Lock   key.Binding // the profiles inspector's
	Restart, Login key.Binding // the MCP servers inspector's
}

// DefaultKeyMap returns the default inspector bindings.
func DefaultKeyMap() KeyMap {
	nav := listnav.DefaultKeyMap()
	nav.Up = key.NewBinding(key.WithKeys("up", "k", "ctrl+p"), key.WithHelp("↑/k", "up"))
	nav.Down = key.NewBinding(key.WithKeys("down", "j", "ctrl+n"), key.WithHelp("↓/j", "down"))
	return KeyMap{
		KeyMap:  nav,
		Older:   key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←", "older run")),
		Newer:   key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→", "newer run")),
		Clear:   key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "clear")),
		Prefer:  key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "prefer")),
		Lock:    key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "lock")),
		Restart: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "restart")),
		Login:   key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "log in")),
		Close:   key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "close")),
	}
}

// ShortHelp returns the bindings for the help line.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Clear, k.Prefer, k.Lock, k.Restart, k.Login, k.Older, k.Newer, k.Close}
}

// FullHelp returns every binding, grouped.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.KeyMap.Bindings(), {k.Older, k.Newer, k.Clear, k.Prefer, k.Lock, k.Restart, k.Login, k.Close}}
}
