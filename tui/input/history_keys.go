package input

import "github.com/charmbracelet/bubbles/key"

// HistoryKeyMap is the bindings of the prompt history: ↑ on the first line
// and ↓ on the last walk it, Ctrl+R searches it. Which apply depends on the
// cursor, the completion list and the search (syncHistory), so help and
// matching agree.
type HistoryKeyMap struct {
	Prev, Next key.Binding // an earlier, a later prompt while walking
	Search     key.Binding // starts a reverse incremental search
	// Older, Take and Cancel work the search while it is open.
	Older, Take, Cancel key.Binding
}

// DefaultHistoryKeyMap returns the history's default bindings, those of
// readline.
func DefaultHistoryKeyMap() HistoryKeyMap {
	return HistoryKeyMap{
		Prev:   key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑", "earlier prompt"), key.WithDisabled()),
		Next:   key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓", "later prompt"), key.WithDisabled()),
		Search: key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "search history")),
		Older:  key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "older match"), key.WithDisabled()),
		Take:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "use match"), key.WithDisabled()),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"), key.WithDisabled()),
	}
}

// Bindings lists every history binding.
func (k HistoryKeyMap) Bindings() []key.Binding {
	return []key.Binding{k.Prev, k.Next, k.Search, k.Older, k.Take, k.Cancel}
}
