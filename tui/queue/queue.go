// Package queue is the strip above the editor that lists pending inputs
// (steering and follow-ups) in the order the runtime will deliver them, and
// lets the user take one back into the editor or drop it.
//
// Its items come only from the runtime's queue_update events and snapshots,
// matched by item id: an item disappears when the kernel injects it, never
// because some text looked the same.
package queue

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/sanitize"
	"github.com/steer-tui/steer/tui/theme"
)

// KeyMap is the strip's bindings while it has the focus.
type KeyMap struct {
	Prev, Next key.Binding
	Edit       key.Binding // take the selected item back into the editor
	Drop       key.Binding // remove the selected item unsent
}

// DefaultKeyMap returns the strip's default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Prev: key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "previous")),
		Next: key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "next")),
		Edit: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "edit")),
		Drop: key.NewBinding(key.WithKeys("delete", "backspace", "d"), key.WithHelp("del", "drop")),
	}
}

// ShortHelp returns the bindings for the help line.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Prev, k.Next, k.Edit, k.Drop} }

// FullHelp returns every binding, grouped.
func (k KeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// Deps is what the strip needs from its owner.
type Deps struct {
	Styles theme.QueueStyles
	Keys   KeyMap
}

// Model is the strip.
type Model struct {
	d       *Deps             // shared by copies; changed only by SetStyles
	items   []agent.QueueItem // the runtime's, then held (held.go)
	inputs  []agent.QueueItem // the runtime's
	held    []agent.QueueItem
	width   int
	maxRows int
	focused bool
	sel     int
	view    string
}

// New returns an empty strip.
func New(d Deps) Model { return Model{d: &d, width: 40, maxRows: 4} }

// SetStyles changes the styles (a theme chosen with /theme).
func (m *Model) SetStyles(st theme.QueueStyles) { m.d.Styles = st }

// SetSize sets the width and the most rows the strip may take.
func (m *Model) SetSize(width, maxRows int) {
	width, maxRows = max(width, 10), max(maxRows, 1)
	if width != m.width || maxRows != m.maxRows {
		m.width, m.maxRows = width, maxRows
		m.render()
	}
}

// Focus gives the strip the keys and selects the newest item.
func (m *Model) Focus() tea.Cmd {
	m.focused, m.sel = true, max(len(m.items)-1, 0)
	m.render()
	return nil
}

// Blur takes the keys away.
func (m *Model) Blur() {
	m.focused = false
	m.render()
}

// Items returns the pending items in delivery order.
func (m Model) Items() []agent.QueueItem { return m.items }

// Newest returns the item queued last, the one Alt+Up takes back.
func (m Model) Newest() (agent.QueueItem, bool) {
	var newest agent.QueueItem
	for i, it := range m.items {
		if i == 0 || !it.Created.Before(newest.Created) {
			newest = it
		}
	}
	return newest, len(m.items) > 0
}

// Keys returns the bindings, for help.
func (m Model) Keys() KeyMap { return m.d.Keys }

// Update takes queue events and, while focused, keys.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case msgs.RunEventMsg:
		changed := false
		for _, ev := range msg.Events {
			if q, ok := ev.(agent.QueueUpdate); ok {
				m.inputs, changed = q.Items, true
			}
		}
		if !changed {
			return m, nil
		}
		m.join()
	case msgs.SessionLoadedMsg:
		m.inputs = msg.Queue
		m.join()
	case tea.KeyMsg:
		if !m.focused || len(m.items) == 0 {
			return m, nil
		}
		switch {
		case key.Matches(msg, m.d.Keys.Prev):
			m.sel = max(m.sel-1, 0)
		case key.Matches(msg, m.d.Keys.Next):
			m.sel = min(m.sel+1, len(m.items)-1)
		case key.Matches(msg, m.d.Keys.Edit):
			id := m.items[m.sel].ID
			return m, func() tea.Msg { return msgs.TakeBackMsg{ID: id} }
		case key.Matches(msg, m.d.Keys.Drop):
			id := m.items[m.sel].ID
			return m, func() tea.Msg { return msgs.DropQueuedMsg{ID: id} }
		}
	default:
		return m, nil
	}
	m.sel = min(m.sel, max(len(m.items)-1, 0))
	m.render()
	return m, nil
}

// Height is the number of rows View takes: 0 when the queue is empty.
func (m Model) Height() int {
	if m.view == "" {
		return 0
	}
	return strings.Count(m.view, "\n") + 1
}

// View returns the strip, or "" when nothing is queued.
func (m Model) View() string { return m.view }

func (m *Model) render() {
	if len(m.items) == 0 {
		m.view = ""
		return
	}
	first, rows := 0, len(m.items)
	if rows > m.maxRows { // keep the newest in view, and the selection
		first = len(m.items) - (m.maxRows - 1)
		if m.focused && m.sel < first {
			first = m.sel
		}
		rows = m.maxRows - 1
	}
	var out []string
	if first > 0 {
		out = append(out, m.d.Styles.More.Render(fmt.Sprintf("  … %d more queued", first)))
	}
	for i := first; i < first+rows && i < len(m.items); i++ {
		out = append(out, m.row(i))
	}
	m.view = strings.Join(out, "\n")
}

// head is the start of text, at most n bytes cut at a rune's start: a row
// shows one line, and a queued paste of megabytes would be sanitised whole
// on every frame.
func head(text string, n int) string {
	if len(text) <= n {
		return text
	}
	for n > 0 && !utf8.RuneStart(text[n]) {
		n--
	}
	return text[:n] + "…"
}

// waitLabels name the items that wait for the run's end, 9 wide like
// "steer    ": follow-ups, the user's shell commands, slash commands.
var waitLabels = map[agent.QueueKind]string{
	agent.QueueFollowUp:     "follow-up",
	agent.QueueShell:        "!        ",
	agent.QueueShellPrivate: "!!       ",
	KindCommand:             "command  ",
}

func (m *Model) row(i int) string {
	it := m.items[i]
	st := m.d.Styles
	kind := st.Steer.Render("steer    ")
	if label, ok := waitLabels[it.Kind]; ok {
		kind = st.FollowUp.Render(label)
	}
	room := m.width - 2 - 9 - 3
	text := strings.Join(strings.Fields(sanitize.String(head(it.Text, 8*max(room, 1)), sanitize.Options{})), " ")
	mark := "  "
	if m.focused && i == m.sel {
		mark = st.Selected.Render("›") + " "
	}
	return mark + kind + " " + st.More.Render("›") + " " + st.Text.Render(ansi.Truncate(text, max(room, 1), "…"))
}
