package inspect

import (
	"slices"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent/runner/inspector"
	"github.com/steer-tui/steer/tui/listnav"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/theme"
)

// Deps is what an inspector needs from its owner.
type Deps struct {
	Styles theme.InspectStyles
	Keys   KeyMap
	// Now reads the clock for countdowns and ages; it defaults to time.Now.
	Now func() time.Time
}

// Model is one open inspector.
type Model struct {
	d    *Deps // shared by copies; never changed after New
	keys KeyMap
	ins  *inspector.Inspector

	view    any    // as last handed in (nil: the empty view)
	page    int    // the page on screen (the trace's run): 0 the newest
	loaded  bool   // a view was handed in
	problem string // why the view could not be read

	table         inspector.Table
	sel, offset   int
	width, height int
	rendered      string
}

// New returns inspector ins, empty ("loading…") until its view is handed
// in.
func New(d Deps, ins *inspector.Inspector) Model {
	if d.Now == nil {
		d.Now = time.Now
	}
	m := Model{d: &d, keys: d.Keys, ins: ins, width: 80, height: 20}
	m.rebuild()
	return m
}

// Which returns the inspector shown, by its slash command ("" for the zero
// Model, which shows none).
func (m Model) Which() msgs.Inspector {
	if m.ins == nil {
		return ""
	}
	return msgs.Inspector(m.ins.Command())
}

// Inspector returns the inspector shown.
func (m Model) Inspector() *inspector.Inspector { return m.ins }

// Keys returns the bindings that apply now, for help.
func (m Model) Keys() KeyMap { return m.keys }

// Table returns what the inspector shows now.
func (m Model) Table() inspector.Table { return m.table }

// Selected returns the selected row, if there is one.
func (m Model) Selected() (inspector.Row, bool) {
	if m.sel < 0 || m.sel >= len(m.table.Rows) {
		return inspector.Row{}, false
	}
	return m.table.Rows[m.sel], true
}

// SetSize sets the area the inspector is drawn in.
func (m *Model) SetSize(width, height int) {
	if width != m.width || height != m.height {
		m.width, m.height = width, height
		m.render()
	}
}

// SetView hands in the inspector's view, as its Read made it. An
// inspector with pages stays on the page it showed, or on the newest when
// it showed the newest.
func (m *Model) SetView(v any) {
	shown := ""
	if m.page > 0 && m.page < len(m.table.Pages) {
		shown = m.table.Pages[m.page]
	}
	m.view, m.loaded, m.problem, m.page = v, true, "", 0
	if shown != "" {
		m.page = max(slices.Index(m.ins.Table(v, inspector.Frame{Now: m.d.Now()}).Pages, shown), 0)
	}
	m.rebuild()
}

// SetProblem says why the view could not be read; the last one read stays
// shown, if any.
func (m *Model) SetProblem(why string) {
	m.problem = why
	m.rebuild()
}

// Tick redraws with the clock: countdowns and ages move.
func (m *Model) Tick() { m.rebuild() }

// Update handles keys: moving, paging through the trace's runs, asking to
// clear the selected row. Close is the owner's to match (at once, so that
// no key typed after it is lost to a closing inspector).
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	if sel, ok := m.keys.Move(m.sel, len(m.table.Rows), m.rowsRoom()-1, k); ok {
		m.sel = sel
		m.syncKeys()
		m.render()
		return m, nil
	}
	switch {
	case key.Matches(k, m.keys.Clear):
		row, _ := m.Selected()
		ask := msgs.AskClearMsg{Which: m.Which(), Target: row.Target}
		return m, func() tea.Msg { return ask }
	case key.Matches(k, m.keys.Prefer), key.Matches(k, m.keys.Lock):
		return m, m.choose(key.Matches(k, m.keys.Lock))
	case key.Matches(k, m.keys.Restart), key.Matches(k, m.keys.Login):
		return m, m.serverAction(key.Matches(k, m.keys.Login))
	case key.Matches(k, m.keys.Older):
		m.showPage(m.page + 1)
	case key.Matches(k, m.keys.Newer):
		m.showPage(m.page - 1)
	default:
		return m, nil
	}
	m.syncKeys()
	m.render()
	return m, nil
}

// choose toggles the selected row's profile as the session's locked
// (lock) or preferred one: a profile already chosen is unchosen.
func (m Model) choose(lock bool) tea.Cmd {
	row, ok := m.Selected()
	if !ok || row.Choice == nil {
		return nil
	}
	c := row.Choice
	var ask tea.Msg
	switch {
	case lock && c.Locked:
		ask = msgs.LockProfileMsg{}
	case lock:
		ask = msgs.LockProfileMsg{Profile: c.Profile}
	case c.Preferred:
		ask = msgs.PreferProfileMsg{}
	default:
		ask = msgs.PreferProfileMsg{Profile: c.Profile}
	}
	return func() tea.Msg { return ask }
}

// serverAction asks to restart the selected row's MCP server, or to sign
// in to it.
func (m Model) serverAction(login bool) tea.Cmd {
	row, ok := m.Selected()
	if !ok || row.Server == nil {
		return nil
	}
	var ask tea.Msg = msgs.RestartMCPMsg{Server: row.Server.Name}
	if login {
		ask = msgs.LoginMCPMsg{Server: row.Server.Name}
	}
	return func() tea.Msg { return ask }
}

// showPage shows page i, from its first row.
func (m *Model) showPage(i int) {
	m.page = min(max(i, 0), max(len(m.table.Pages)-1, 0))
	m.sel, m.offset = 0, 0
	m.rebuild()
}

// rebuild makes the table again from the view and the clock, keeping the
// selection on the same row.
func (m *Model) rebuild() {
	selected := ""
	if r, ok := m.Selected(); ok {
		selected = r.Key
	}
	m.table = m.ins.Table(m.view, inspector.Frame{Now: m.d.Now(), Page: m.page})
	switch {
	case m.problem != "" && !m.loaded:
		m.table.Rows, m.table.Empty = nil, "cannot read: "+m.problem
	case m.problem != "":
		m.table.Summary = "not updated: " + m.problem
	case !m.loaded:
		m.table.Rows, m.table.Empty = nil, "loading…"
	}
	for i, r := range m.table.Rows {
		if selected != "" && r.Key == selected {
			m.sel = i
		}
	}
	m.sel = listnav.Clamp(m.sel, len(m.table.Rows))
	m.syncKeys()
	m.render()
}

// syncKeys enables the bindings that apply to this inspector and row.
func (m *Model) syncKeys() {
	k := &m.keys
	row, ok := m.Selected()
	k.Clear.SetEnabled(ok && row.Target != "")
	if c := m.ins.Clear(); c != nil {
		k.Clear.SetHelp(k.Clear.Help().Key, c.Action()+" "+c.What)
	}
	c := row.Choice
	k.Prefer.SetEnabled(c != nil)
	k.Lock.SetEnabled(c != nil)
	prefer, lock := "prefer", "lock"
	if c != nil && c.Preferred {
		prefer = "unprefer"
	}
	if c != nil && c.Locked {
		lock = "unlock"
	}
	k.Prefer.SetHelp(k.Prefer.Help().Key, prefer)
	k.Lock.SetHelp(k.Lock.Help().Key, lock)
	k.Restart.SetEnabled(row.Server != nil)
	k.Login.SetEnabled(row.Server != nil && row.Server.CanLogin)
	k.Older.SetEnabled(m.page+1 < len(m.table.Pages))
	k.Newer.SetEnabled(m.page > 0)
}
