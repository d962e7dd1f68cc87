package dialog

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/steer-tui/steer/tui/sanitize"
)

// Search makes a picker filter as the user types: every change of the query
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

// NewSearchPicker returns a picker of items that filters as the user types.
// Typed characters go to the query (q does not close it: Esc does).
func NewSearchPicker(d Deps, title string, items []Item, selected int, s Search) Model {
	m := NewPicker(d, title, items, selected)
	m.search = &s
	return m
}

// Searches reports whether the dialog is a search picker, whose query
// takes text typed in a burst too.
func (m Model) Searches() bool { return m.search != nil }

// Query is what the user typed into a search picker.
func (m Model) Query() string { return m.query }

// SetItems replaces a picker's items (a search's answer), selecting the
// first; scope, when not "", is what the search now covers.
func (m *Model) SetItems(items []Item, scope string) {
	m.items, m.sel, m.offset = items, 0, 0
	if items == nil {
		m.items = []Item{}
	}
	if m.search != nil && scope != "" {
		m.search.Scope = scope
	}
	m.enableKeys()
	m.render()
}

// typeQuery edits a search picker's query with k: characters, Backspace,
// Ctrl+U, and Tab for the owner. It reports whether k was for the query.
func (m *Model) typeQuery(k tea.KeyMsg) (tea.Cmd, bool) {
	if m.search == nil {
		return nil, false
	}
	switch {
	case k.Type == tea.KeyRunes && !k.Alt, k.Type == tea.KeySpace:
		m.query += string(k.Runes)
	case k.Type == tea.KeyBackspace && m.query != "":
		r := []rune(m.query)
		m.query = string(r[:len(r)-1])
	case k.Type == tea.KeyCtrlU && m.query != "":
		m.query = ""
	case k.Type == tea.KeyTab && m.search.OnTab != nil:
		tab := m.search.OnTab
		return func() tea.Msg { return tab }, true
	default:
		return nil, false
	}
	query, on := m.query, m.search.OnQuery
	return func() tea.Msg { return on(query) }, true
}

// searchLine is the query as typed, with the scope and the keys.
func (m Model) searchLine(width int) string {
	st := m.d.Styles
	hint := "type to search"
	if m.search.Scope != "" {
		hint += " · " + m.search.Scope
	}
	if m.search.OnTab != nil {
		hint += " · tab: scope"
	}
	q := sanitize.String(m.query, sanitize.Options{})
	line := "/ " + q + "▏"
	room := max(width-ansi.StringWidth(hint)-2, 8)
	return ansi.Truncate(line, room, "…") + "  " + st.Hint.Render(hint)
}
