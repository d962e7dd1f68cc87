// Package dialog is the modal layer: pickers (sessions, models, thinking
// levels) and the help text. A dialog takes every key while it is open and
// says what the user chose with the request message the chosen item
// carries, so a picker implements no action itself. Every picker filters
// as the user types (search.go); a question, which one key answers, does
// not.
package dialog

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/steer-tui/steer/tui/listnav"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/sanitize"
	"github.com/steer-tui/steer/tui/theme"
)

// KeyMap is a dialog's bindings.
type KeyMap struct {
	listnav.KeyMap
	Choose, Close key.Binding
	// Delete sends the selected item's Delete request (the picker stays
	// open); it is on only for an item that has one.
	Delete key.Binding
	// Erase and ClearQuery edit a picker's query (what is typed is the
	// rest of it); Scope, a search's Tab, asks its owner to change what
	// the search covers. Each is on only where it applies.
	Erase, ClearQuery, Scope key.Binding
	// Edit sends a question's edit request (WithEdit); it is on only for
	// a question that has one.
	Edit key.Binding
}

// DefaultKeyMap returns the default dialog bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		KeyMap:     listnav.DefaultKeyMap(),
		Choose:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "choose")),
		Close:      key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "close")),
		Delete:     key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "delete")),
		Erase:      key.NewBinding(key.WithKeys("backspace"), key.WithHelp("backspace", "widen")),
		ClearQuery: key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("ctrl+u", "clear filter")),
		Scope:      key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "scope")),
		Edit:       key.NewBinding(key.WithKeys("ctrl+g"), key.WithHelp("ctrl+g", "edit in $EDITOR"), key.WithDisabled()),
	}
}

// ShortHelp returns the bindings for the help line.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Choose, k.Edit, k.Delete, k.Scope, k.Erase, k.Close}
}

// FullHelp returns every binding, grouped.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.KeyMap.Bindings(), {k.Choose, k.Edit, k.Delete, k.Close}, {k.Erase, k.ClearQuery, k.Scope}}
}

// Item is one row of a picker. Msg is the request sent when it is chosen.
// Shortcut, when set, is a key (one character, "y") that chooses it at once.
// Delete, when set, is the request sent for the delete key on it: the
// owner asks before it deletes anything. Current marks the choice in force
// (the model in use, this session), shown with CurrentMark.
type Item struct {
	Label, Detail string
	Msg           tea.Msg
	Shortcut      string
	Delete        tea.Msg
	Current       bool
}

// CurrentMark marks the current item's label.
const CurrentMark = "● "

// Deps is what a dialog needs from its owner.
type Deps struct {
	Styles theme.DialogStyles
	Keys   KeyMap
}

// Model is an open dialog: a picker when it has items, else a text.
type Model struct {
	d      *Deps // shared by copies; never changed after New
	keys   KeyMap
	title  string
	items  []Item
	lines  []string // the text of an info dialog
	sel    int
	offset int
	width  int
	height int
	view   string
	// onClose, when set, is sent when the dialog is closed without a
	// choice: a question that must be answered (an approval) answers no.
	onClose tea.Msg
	tag     string // names what the dialog is about, for its owner
	// A question that one key answers is guarded against keys typed ahead
	// (see Deliberate): shown is when it last came on top of the screen
	// (zero while covered), paused says it ignores keys now.
	guarded bool
	shown   time.Time
	paused  bool
	// A picker filters as the user types (search.go): itself (filters),
	// or, with search set, by asking its owner. matches are the indices of
	// the items that match query, best first; sel is an index into it.
	filters bool
	search  *Search
	query   string
	matches []int
	initial int        // the item selected at first, again once the query is empty
	fm      formDialog // a form's (form.go)
	edit    tea.Msg    // a question's edit request (edit.go), nil for none
}

// PausedNote is what a guarded question says while it ignores keys.
const PausedNote = "keys paused: you were typing"

// NewPicker returns a picker of items with selected highlighted, which
// filters them as the user types.
func NewPicker(d Deps, title string, items []Item, selected int) Model {
	m := newList(d, title, items, selected)
	m.filters = true
	m.enableKeys()
	return m
}

// newList returns a list of items to choose from, not filtering.
func newList(d Deps, title string, items []Item, selected int) Model {
	m := Model{d: &d, keys: d.Keys, title: title, items: items}
	m.initial = listnav.Clamp(selected, len(items))
	m.showAll()
	m.enableKeys()
	return m
}

// enableKeys turns on the bindings that apply to the items and the
// selected one, so that help shows only those.
func (m *Model) enableKeys() {
	it, ok := m.selected()
	m.keys.Choose.SetEnabled(ok)
	m.keys.Delete.SetEnabled(ok && it.Delete != nil)
	m.keys.Erase.SetEnabled(m.Searches() && m.query != "")
	m.keys.ClearQuery.SetEnabled(m.Searches() && m.query != "")
	m.keys.Scope.SetEnabled(m.search != nil && m.search.OnTab != nil)
}

// selected is the selected item, if any shows.
func (m Model) selected() (Item, bool) {
	if m.sel >= len(m.matches) {
		return Item{}, false
	}
	return m.items[m.matches[m.sel]], true
}

// NewInfo returns a dialog that shows text.
func NewInfo(d Deps, title, text string) Model {
	m := Model{d: &d, keys: d.Keys, title: title, lines: strings.Split(text, "\n")}
	m.enableKeys()
	return m
}

// NewQuestion returns a dialog that shows text above a choice of items, for
// a question that must be answered: closing it (Esc) sends onClose.
func NewQuestion(d Deps, title, text string, items []Item, onClose tea.Msg) Model {
	m := newList(d, title, items, 0)
	m.lines = strings.Split(text, "\n")
	m.onClose = onClose
	m.guarded = true
	return m
}

// Guarded reports whether one key answers the dialog (a question), which
// therefore ignores keys typed ahead: its owner asks Deliberate first.
func (m Model) Guarded() bool { return m.guarded }

// Shown is when the dialog came on top of the screen; zero while it has
// not, or is covered by another.
func (m Model) Shown() time.Time { return m.shown }

// SetShown records when the dialog came on top (zero: it is covered).
func (m *Model) SetShown(t time.Time) { m.shown = t }

// SetPaused says whether the dialog ignores keys now; it shows PausedNote
// meanwhile.
func (m *Model) SetPaused(paused bool) {
	if paused != m.paused {
		m.paused = paused
		m.render()
	}
}

// WithTag returns the dialog tagged with tag (an approval's tool call id),
// so that its owner can find it again.
func (m Model) WithTag(tag string) Model {
	m.tag = tag
	return m
}

// Tag returns the dialog's tag.
func (m Model) Tag() string { return m.tag }

// Title returns the dialog's title.
func (m Model) Title() string { return m.title }

// Keys returns the bindings, for help.
func (m Model) Keys() KeyMap { return m.keys }

// SetSize sets the area the dialog is drawn in.
func (m *Model) SetSize(width, height int) {
	if width != m.width || height != m.height || m.view == "" {
		m.width, m.height = width, height
		m.render()
	}
}

// Update handles keys. Choosing closes the dialog and sends the item's
// request, in that order.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if m.isForm() {
		return m.updateForm(msg)
	}
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	if cmd, ok := m.typeQuery(k); ok {
		m.render()
		return m, cmd
	}
	if i, ok := m.shortcut(k); ok {
		return m, m.choose(i)
	}
	if cmd, ok := m.editKey(k); ok {
		return m, cmd
	}
	switch {
	case key.Matches(k, m.keys.Close) && m.onClose != nil:
		answer := m.onClose
		return m, tea.Sequence(func() tea.Msg { return msgs.CloseDialogMsg{} }, func() tea.Msg { return answer })
	case key.Matches(k, m.keys.Close):
		return m, func() tea.Msg { return msgs.CloseDialogMsg{} }
	case key.Matches(k, m.keys.Choose) && m.keys.Choose.Enabled():
		return m, m.choose(m.matches[m.sel])
	case key.Matches(k, m.keys.Delete) && m.keys.Delete.Enabled():
		it, _ := m.selected()
		del := it.Delete
		return m, func() tea.Msg { return del }
	default:
		m.move(k)
	}
	m.render()
	return m, nil
}

// choose closes the dialog and sends item i's request, in that order.
func (m Model) choose(i int) tea.Cmd {
	chosen := m.items[i].Msg
	return tea.Sequence(func() tea.Msg { return msgs.CloseDialogMsg{} }, func() tea.Msg { return chosen })
}

// shortcut finds the item whose Shortcut k is. Only a key of one character
// counts: several runes in one message are typed text, never a key.
func (m Model) shortcut(k tea.KeyMsg) (int, bool) {
	if k.Type != tea.KeyRunes || len(k.Runes) != 1 || k.Alt {
		return 0, false
	}
	for i, it := range m.items {
		if it.Shortcut != "" && it.Shortcut == string(k.Runes) {
			return i, true
		}
	}
	return 0, false
}

// move moves the selection with k, or scrolls a text.
func (m *Model) move(k tea.KeyMsg) {
	page := m.rows() - 1
	if m.items != nil {
		m.sel, _ = m.keys.Move(m.sel, len(m.matches), page, k)
		m.enableKeys()
		return
	}
	// A text scrolls by its first line shown, which goes as far as
	// leaves the last page full.
	m.offset, _ = m.keys.Move(m.offset, max(len(m.lines)-m.rows(), 0)+1, page, k)
}

// rows is how many rows of content fit inside the box (a picker's query
// line takes one).
func (m Model) rows() int {
	if m.Searches() {
		return max(m.height-4, 1)
	}
	return max(m.height-3, 1)
}

// View returns the dialog, drawn to fill its area.
func (m Model) View() string { return m.view }

func (m *Model) render() {
	if m.isForm() {
		m.renderForm()
		return
	}
	st := m.d.Styles
	inner := max(m.width-4, 10)
	rows := m.rows()
	var body []string
	if len(m.items) > 0 && m.lines != nil { // a question: its text, then the choices
		room := max(rows-len(m.items)-1, 1)
		for i, l := range m.lines {
			if i == room-1 && len(m.lines) > room {
				body = append(body, st.Hint.Render(fmt.Sprintf("… %d more lines", len(m.lines)-i)))
				break
			}
			body = append(body, ansi.Truncate(l, inner, "…"))
		}
		body = append(body, "")
		rows = max(rows-len(body), 1)
	}
	if len(m.matches) > 0 {
		if m.sel < m.offset {
			m.offset = m.sel
		}
		if m.sel >= m.offset+rows {
			m.offset = m.sel - rows + 1
		}
		for i := m.offset; i < len(m.matches) && i < m.offset+rows; i++ {
			body = append(body, m.itemLine(i, inner))
		}
	} else if m.query != "" {
		body = append(body, st.Hint.Render(ansi.Truncate("no matches for “"+sanitize.String(m.query, sanitize.Options{})+"”", inner, "…")))
	} else if m.items != nil || m.lines == nil {
		body = append(body, st.Hint.Render("nothing to choose from"))
	} else {
		end := min(m.offset+rows, len(m.lines))
		for _, l := range m.lines[m.offset:end] {
			body = append(body, ansi.Truncate(l, inner, "…"))
		}
	}
	title := st.Title.Render(m.title)
	if m.Searches() {
		title += "\n" + m.searchLine(inner)
	}
	if m.paused {
		title += st.Hint.Render("  " + PausedNote)
	}
	switch {
	case len(m.matches) > rows:
		title += st.Hint.Render(fmt.Sprintf("  %d/%d", m.sel+1, len(m.matches)))
	case len(m.items) == 0 && len(m.lines) > rows:
		last := min(m.offset+rows, len(m.lines))
		title += st.Hint.Render(fmt.Sprintf("  lines %d–%d of %d · ↑↓ pgup pgdn scroll", m.offset+1, last, len(m.lines)))
	}
	if len(m.items) == 0 && m.lines != nil { // a text keeps its height while it scrolls
		for len(body) < rows {
			body = append(body, "")
		}
	}
	if m.filters { // a picker keeps its height while it narrows
		for len(body) < min(len(m.items), rows) {
			body = append(body, "")
		}
	}
	box := st.Box.Width(inner + 2).Render(title + "\n" + strings.Join(body, "\n"))
	lines := strings.Split(box, "\n")
	for len(lines) < m.height {
		lines = append(lines, "")
	}
	m.view = strings.Join(lines, "\n")
}

// itemLine draws the i-th item shown.
func (m *Model) itemLine(i, width int) string {
	st := m.d.Styles
	it := m.items[m.matches[i]]
	label := sanitize.String(it.Label, sanitize.Options{})
	if it.Shortcut != "" {
		label = "(" + it.Shortcut + ") " + label
	}
	if it.Current {
		label = CurrentMark + label
	}
	detail := sanitize.String(it.Detail, sanitize.Options{})
	mark, style := "  ", st.Item
	if i == m.sel {
		mark, style = "› ", st.Selected
	}
	room := width - 2 - ansi.StringWidth(detail) - 2
	if room < 8 {
		detail, room = "", width-2
	}
	label = ansi.Truncate(label, room, "…")
	pad := max(room-ansi.StringWidth(label), 0)
	line := style.Render(mark+label) + strings.Repeat(" ", pad)
	if detail != "" {
		line += "  " + st.Detail.Render(detail)
	}
	return line
}
