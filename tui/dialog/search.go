package dialog

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/steer-tui/steer/tui/filter"
	"github.com/steer-tui/steer/tui/listnav"
	"github.com/steer-tui/steer/tui/sanitize"
)

// Every picker has a query line: characters typed narrow the list,
// Backspace widens it, Ctrl+U clears it, ↑/↓ move among the matches, Enter
// takes the selected one and Esc closes (q is text here). A picker made by
// NewPicker matches its items' labels itself, by filter.Rank; one made by
// NewSearchPicker asks its owner instead.

// Search makes a picker's owner do its filtering: every change of the query
// is sent as OnQuery's request, and the owner answers with the matching
// items (SetItems). The picker does no search itself, so the owner may look
// anywhere (a database's full-text index).
type Search struct {
	// OnQuery is the request for the items matching query ("" for all).
	OnQuery func(query string) tea.Msg
	// OnTab, when set, is sent for Tab (the owner changes the scope).
	OnTab tea.Msg
	// Scope words what the search covers now ("this workspace").
	Scope string
}

// NewSearchPicker returns a picker of items whose owner filters them as
// the user types.
func NewSearchPicker(d Deps, title string, items []Item, selected int, s Search) Model {
	m := newList(d, title, items, selected)
	m.search = &s
	m.enableKeys()
	return m
}

// Searches reports whether the dialog is a picker with a query line, which
// takes text typed in a burst too.
func (m Model) Searches() bool { return m.filters || m.search != nil }

// Matches returns the labels of the items that show now (those matching
// the query), in their order.
func (m Model) Matches() []string {
	out := make([]string, len(m.matches))
	for i, k := range m.matches {
		out[i] = m.items[k].Label
	}
	return out
}

// showAll shows every item, the one selected at first selected again.
func (m *Model) showAll() {
	m.matches = make([]int, len(m.items))
	for i := range m.matches {
		m.matches[i] = i
	}
	m.sel, m.offset = listnav.Clamp(m.initial, len(m.items)), 0
}

// refilter shows the items matching the query, the best selected.
func (m *Model) refilter() {
	if m.query == "" {
		m.showAll()
	} else {
		labels := make([]string, len(m.items))
		for i, it := range m.items {
			labels[i] = it.Label
		}
		m.matches, m.sel, m.offset = filter.Rank(m.query, labels), 0, 0
	}
	m.enableKeys()
}

// Query is what the user typed into a picker.
func (m Model) Query() string { return m.query }

// SetItems replaces a picker's items (a search's answer), selecting the
// current one, else the first; scope, when not "", is what the search now
// covers.
func (m *Model) SetItems(items []Item, scope string) {
	m.items, m.initial = items, 0
	if items == nil {
		m.items = []Item{}
	}
	for i, it := range m.items {
		if it.Current {
			m.initial = i
			break
		}
	}
	m.showAll()
	if m.search != nil && scope != "" {
		m.search.Scope = scope
	}
	m.enableKeys()
	m.render()
}

// typeQuery edits a picker's query with k: text typed, Erase, ClearQuery,
// and Scope for a search's owner. It reports whether k was for the query.
func (m *Model) typeQuery(k tea.KeyMsg) (tea.Cmd, bool) {
	if !m.Searches() {
		return nil, false
	}
	switch {
	case k.Type == tea.KeyRunes && !k.Alt, k.Type == tea.KeySpace: // text, not a key
		m.query += string(k.Runes)
	case key.Matches(k, m.keys.Erase):
		r := []rune(m.query)
		m.query = string(r[:len(r)-1])
	case key.Matches(k, m.keys.ClearQuery):
		m.query = ""
	case key.Matches(k, m.keys.Scope):
		tab := m.search.OnTab
		return func() tea.Msg { return tab }, true
	default:
		return nil, false
	}
	m.enableKeys()
	if m.search == nil {
		m.refilter()
		return nil, true
	}
	query, on := m.query, m.search.OnQuery
	return func() tea.Msg { return on(query) }, true
}

// searchLine is the query as typed, with what it matches and the keys.
func (m Model) searchLine(width int) string {
	st := m.d.Styles
	hint := "type to filter"
	switch {
	case m.search != nil:
		hint = "type to search"
		if m.search.Scope != "" {
			hint += " · " + m.search.Scope
		}
		if m.search.OnTab != nil {
			hint += " · tab: scope"
		}
	case m.query != "":
		hint = fmt.Sprintf("%d of %d", len(m.matches), len(m.items))
	}
	q := sanitize.String(m.query, sanitize.Options{})
	line := "/ " + q + "▏"
	room := max(width-ansi.StringWidth(hint)-2, 8)
	return ansi.Truncate(line, room, "…") + "  " + st.Hint.Render(hint)
}
