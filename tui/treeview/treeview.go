// Package treeview is /tree: the session's transcript tree in place, one
// row per entry, oldest first, branches drawn with connectors. It moves,
// folds, filters, searches and labels; choosing an entry is a request to
// its owner (NavigateMsg), which asks the runtime to move the leaf there.
package treeview

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/listnav"
	"github.com/steer-tui/steer/tui/sanitize"
	"github.com/steer-tui/steer/tui/theme"
)

// The requests the tree sends its owner.
type (
	// NavigateMsg asks to move the leaf to entry ID.
	NavigateMsg struct{ ID string }
	// LabelMsg asks to label entry ID ("" removes its label).
	LabelMsg struct{ ID, Label string }
	// CloseMsg closes the tree.
	CloseMsg struct{}
)

// KeyMap is the tree's bindings; help shows them.
type KeyMap struct {
	listnav.KeyMap
	Choose, Fold, Filter, Search, Label key.Binding
	Close                               key.Binding
}

// DefaultKeyMap returns the tree's default bindings.
func DefaultKeyMap() KeyMap {
	// The tree reads like a pager: k, j, g and G move too.
	nav := listnav.DefaultKeyMap()
	nav.Up.SetKeys("up", "k")
	nav.Down.SetKeys("down", "j")
	nav.Top.SetKeys("home", "g")
	nav.Bottom.SetKeys("end", "G")
	return KeyMap{
		KeyMap: nav,
		Choose: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "go here")),
		Fold:   key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "fold/tool results")),
		Filter: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "filter")),
		Search: key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search")),
		Label:  key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "label")),
		Close:  key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "close")),
	}
}

// ShortHelp returns the bindings for the help line.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Choose, k.Fold, k.Filter, k.Search, k.Label, k.Close}
}

// FullHelp returns every binding, grouped.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.KeyMap.Bindings(), {k.Choose, k.Fold, k.Filter, k.Search, k.Label, k.Close}}
}

// editing says what the text line edits.
type editing int

const (
	editNone editing = iota
	editSearch
	editLabel
)

// Model is an open tree.
type Model struct {
	styles   theme.DialogStyles
	keys     KeyMap
	ix       index
	leaf     string
	rows     []row
	sel      int
	offset   int
	width    int
	height   int
	filter   Filter
	expanded map[string]bool // calls whose tool results show
	folded   map[string]bool
	line     textinput.Model
	editing  editing
	query    string
}

// New returns the tree of t with its leaf selected.
func New(styles theme.DialogStyles, keys KeyMap, t runner.SessionTree) Model {
	m := Model{styles: styles, keys: keys, ix: newIndex(t), leaf: t.Leaf,
		expanded: map[string]bool{}, folded: map[string]bool{}, line: textinput.New()}
	m.line.Prompt = ""
	m.rebuild(t.Leaf)
	return m
}

// Keys returns the bindings, for help.
func (m Model) Keys() KeyMap { return m.keys }

// Leaf is the id of the entry the session stands at.
func (m Model) Leaf() string { return m.leaf }

// Editing reports whether the tree's text line takes the keys typed.
func (m Model) Editing() bool { return m.editing != editNone }

// Selected is the id of the selected entry, "" when no row shows.
func (m Model) Selected() string {
	if m.sel < len(m.rows) {
		return m.rows[m.sel].id
	}
	return ""
}

// SetSize sets the area the tree is drawn in.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = width, height
	m.follow()
}

// rebuild lays the rows out again, keeping id (or its nearest shown
// ancestor) selected.
func (m *Model) rebuild(id string) {
	m.rows = buildRows(m.ix, m.filter, m.query, m.expanded, m.folded)
	m.sel = 0
	defer m.follow()
	for id != "" {
		for i, r := range m.rows {
			if r.id == id {
				m.sel = i
				return
			}
		}
		in := m.ix.byID[id]
		if in == nil {
			return
		}
		id = in.e.ParentID
	}
}

// Update handles keys.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	if m.editing != editNone {
		return m.edit(k)
	}
	if sel, ok := m.keys.Move(m.sel, len(m.rows), m.rows0()-1, k); ok {
		m.sel = sel
		m.follow()
		return m, nil
	}
	switch {
	case key.Matches(k, m.keys.Close):
		return m, func() tea.Msg { return CloseMsg{} }
	case key.Matches(k, m.keys.Choose) && len(m.rows) > 0:
		id := m.Selected()
		return m, func() tea.Msg { return NavigateMsg{ID: id} }
	case key.Matches(k, m.keys.Fold) && len(m.rows) > 0:
		id := m.Selected()
		if m.ix.byID[id].results > 0 {
			m.expanded[id] = !m.expanded[id]
		} else {
			m.folded[id] = !m.folded[id]
		}
		m.rebuild(id)
	case key.Matches(k, m.keys.Filter):
		m.filter = (m.filter + 1) % filterCount
		m.rebuild(m.Selected())
	case key.Matches(k, m.keys.Search):
		m.startEdit(editSearch, m.query)
	case key.Matches(k, m.keys.Label) && len(m.rows) > 0:
		m.startEdit(editLabel, m.ix.byID[m.Selected()].label)
	}
	return m, nil
}

func (m *Model) startEdit(e editing, value string) {
	m.editing = e
	m.line.SetValue(value)
	m.line.CursorEnd()
	m.line.Focus()
}

// edit gives k to the text line: Enter takes it, Esc leaves it (and
// clears the search). The search filters as it is typed.
func (m Model) edit(k tea.KeyMsg) (Model, tea.Cmd) {
	switch k.Type {
	case tea.KeyEnter:
		e, value := m.editing, strings.TrimSpace(m.line.Value())
		m.editing = editNone
		m.line.Blur()
		if e != editLabel || len(m.rows) == 0 {
			return m, nil
		}
		id := m.Selected()
		m.ix.byID[id].label = value
		m.rebuild(id)
		return m, func() tea.Msg { return LabelMsg{ID: id, Label: value} }
	case tea.KeyEsc:
		if m.editing == editSearch && m.query != "" {
			m.query = ""
			m.rebuild(m.Selected())
		}
		m.editing = editNone
		m.line.Blur()
		return m, nil
	}
	var cmd tea.Cmd
	m.line, cmd = m.line.Update(k)
	if m.editing == editSearch && m.line.Value() != m.query {
		m.query = m.line.Value()
		m.rebuild(m.Selected())
	}
	return m, cmd
}

// follow scrolls so that the selected row shows.
func (m *Model) follow() {
	rows := m.rows0()
	if m.sel < m.offset {
		m.offset = m.sel
	}
	if m.sel >= m.offset+rows {
		m.offset = m.sel - rows + 1
	}
	m.offset = max(min(m.offset, len(m.rows)-rows), 0)
}

// rows0 is how many rows fit in the box: its border, title and status line
// take four.
func (m Model) rows0() int { return max(m.height-4, 1) }

// View draws the tree to fill its area.
func (m Model) View() string {
	st := m.styles
	inner := max(m.width-4, 10)
	rows := m.rows0()
	var body []string
	for i := m.offset; i < len(m.rows) && i < m.offset+rows; i++ {
		body = append(body, m.rowLine(i, inner))
	}
	if len(m.rows) == 0 {
		body = append(body, st.Hint.Render("nothing matches"))
	}
	for len(body) < rows {
		body = append(body, "")
	}
	title := st.Title.Render("Session tree") + st.Hint.Render(fmt.Sprintf("  %d/%d · filter: %s", min(m.sel+1, len(m.rows)), len(m.rows), m.filter))
	box := st.Box.Width(inner + 2).Render(title + "\n" + m.statusLine(inner) + "\n" + strings.Join(body, "\n"))
	return box
}

// statusLine is the text line being edited, or the search in force.
func (m Model) statusLine(width int) string {
	switch m.editing {
	case editSearch:
		return ansi.Truncate("/ "+m.line.View(), width, "…")
	case editLabel:
		return ansi.Truncate("label: "+m.line.View()+m.styles.Hint.Render("  enter saves · empty removes · esc cancels"), width, "…")
	}
	if m.query != "" {
		return m.styles.Hint.Render(ansi.Truncate("search: "+sanitize.String(m.query, sanitize.Options{})+" · / to change, esc in it clears", width, "…"))
	}
	return m.styles.Hint.Render("● is where the session stands · enter goes there · a new message then starts a branch")
}

func (m Model) rowLine(i, width int) string {
	st := m.styles
	r := m.rows[i]
	mark, style := "  ", st.Item
	if i == m.sel {
		mark, style = "› ", st.Selected
	}
	dot := "  "
	if r.id == m.leaf {
		dot = "● "
	}
	text := sanitize.String(r.text, sanitize.Options{})
	if r.hidden > 0 {
		text += fmt.Sprintf("  ▸ %d folded", r.hidden)
	}
	line := mark + dot + r.prefix + text
	return style.Render(ansi.Truncate(line, width, "…"))
}
