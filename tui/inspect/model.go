package inspect

import (
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent/runner"
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
	d     *Deps // shared by copies; never changed after New
	keys  KeyMap
	which msgs.Inspector

	// The views it shows, as last handed in; which one counts depends on
	// which.
	profiles []runner.ProfileView
	engines  runner.EnginesView
	lanes    runner.LanesView
	runs     []Run
	run      int // the trace's run on screen: an index into runs, 0 the newest
	loaded   bool
	problem  string // why the view could not be read

	table         Table
	sel, offset   int
	width, height int
	view          string
}

// New returns inspector which, empty ("loading…") until its view is handed
// in.
func New(d Deps, which msgs.Inspector) Model {
	if d.Now == nil {
		d.Now = time.Now
	}
	m := Model{d: &d, keys: d.Keys, which: which, width: 80, height: 20}
	m.rebuild()
	return m
}

// Which returns the inspector shown.
func (m Model) Which() msgs.Inspector { return m.which }

// Keys returns the bindings that apply now, for help.
func (m Model) Keys() KeyMap { return m.keys }

// Table returns what the inspector shows now.
func (m Model) Table() Table { return m.table }

// Selected returns the selected row, if there is one.
func (m Model) Selected() (Row, bool) {
	if m.sel < 0 || m.sel >= len(m.table.Rows) {
		return Row{}, false
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

// SetProfiles hands in the auth profiles.
func (m *Model) SetProfiles(v []runner.ProfileView) {
	m.profiles, m.loaded, m.problem = v, true, ""
	m.rebuild()
}

// SetEngines hands in the context engines.
func (m *Model) SetEngines(v runner.EnginesView) {
	m.engines, m.loaded, m.problem = v, true, ""
	m.rebuild()
}

// SetLanes hands in the lanes.
func (m *Model) SetLanes(v runner.LanesView) {
	m.lanes, m.loaded, m.problem = v, true, ""
	m.rebuild()
}

// SetRuns hands in the runs of the trace, newest first. The view stays on
// the run it showed, or on the newest when it showed the newest.
func (m *Model) SetRuns(runs []Run) {
	shown := ""
	if m.run > 0 && m.run < len(m.runs) {
		shown = m.runs[m.run].Key
	}
	m.runs, m.loaded, m.problem, m.run = runs, true, "", 0
	for i, r := range runs {
		if shown != "" && r.Key == shown {
			m.run = i
		}
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
	page := max(m.rowsRoom()-1, 1)
	switch {
	case key.Matches(k, m.keys.Clear):
		row, _ := m.Selected()
		ask := msgs.AskClearMsg{Which: m.which, Target: row.Target}
		return m, func() tea.Msg { return ask }
	case key.Matches(k, m.keys.Prefer), key.Matches(k, m.keys.Lock):
		return m, m.choose(key.Matches(k, m.keys.Lock))
	case key.Matches(k, m.keys.Up):
		m.move(-1)
	case key.Matches(k, m.keys.Down):
		m.move(1)
	case key.Matches(k, m.keys.PageUp):
		m.move(-page)
	case key.Matches(k, m.keys.PageDown):
		m.move(page)
	case key.Matches(k, m.keys.Top):
		m.move(-len(m.table.Rows))
	case key.Matches(k, m.keys.Bottom):
		m.move(len(m.table.Rows))
	case key.Matches(k, m.keys.Older):
		m.showRun(m.run + 1)
	case key.Matches(k, m.keys.Newer):
		m.showRun(m.run - 1)
	default:
		return m, nil
	}
	m.syncKeys()
	m.render()
	return m, nil
}

// choose toggles the selected profile as the session's locked (lock) or
// preferred one: a profile already chosen is unchosen.
func (m Model) choose(lock bool) tea.Cmd {
	v, ok := m.selectedProfile()
	if !ok {
		return nil
	}
	var ask tea.Msg
	switch {
	case lock && v.Locked:
		ask = msgs.LockProfileMsg{}
	case lock:
		ask = msgs.LockProfileMsg{Profile: v.ID}
	case v.Preferred:
		ask = msgs.PreferProfileMsg{}
	default:
		ask = msgs.PreferProfileMsg{Profile: v.ID}
	}
	return func() tea.Msg { return ask }
}

// selectedProfile is the profile on the selected row of the profiles
// inspector.
func (m Model) selectedProfile() (runner.ProfileView, bool) {
	row, ok := m.Selected()
	if !ok || m.which != msgs.InspectProfiles {
		return runner.ProfileView{}, false
	}
	for _, v := range m.profiles {
		if v.ID == row.Key {
			return v, true
		}
	}
	return runner.ProfileView{}, false
}

func (m *Model) move(n int) {
	m.sel = min(max(m.sel+n, 0), max(len(m.table.Rows)-1, 0))
}

// showRun shows the trace's run i, from its first step.
func (m *Model) showRun(i int) {
	m.run = min(max(i, 0), max(len(m.runs)-1, 0))
	m.sel, m.offset = 0, 0
	m.rebuild()
}

// rebuild makes the table again from the views and the clock, keeping the
// selection on the same row.
func (m *Model) rebuild() {
	selected := ""
	if r, ok := m.Selected(); ok {
		selected = r.Key
	}
	now := m.d.Now()
	switch m.which {
	case msgs.InspectProfiles:
		m.table = profilesTable(m.profiles, now)
	case msgs.InspectEngines:
		m.table = enginesTable(m.engines, now)
	case msgs.InspectLanes:
		m.table = lanesTable(m.lanes, now)
	case msgs.InspectTrace:
		m.table = traceTable(m.runs, m.run, now)
	}
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
	m.move(0)
	m.syncKeys()
	m.render()
}

// syncKeys enables the bindings that apply to this inspector and row.
func (m *Model) syncKeys() {
	k := &m.keys
	row, ok := m.Selected()
	k.Clear.SetEnabled(ok && row.Target != "")
	switch m.which {
	case msgs.InspectProfiles:
		k.Clear.SetHelp("c", "clear cooldown")
	case msgs.InspectEngines:
		k.Clear.SetHelp("c", "clear quarantine")
	}
	v, profile := m.selectedProfile()
	k.Prefer.SetEnabled(profile)
	k.Lock.SetEnabled(profile)
	prefer, lock := "prefer", "lock"
	if v.Preferred {
		prefer = "unprefer"
	}
	if v.Locked {
		lock = "unlock"
	}
	k.Prefer.SetHelp("p", prefer)
	k.Lock.SetHelp("l", lock)
	trace := m.which == msgs.InspectTrace
	k.Older.SetEnabled(trace && m.run+1 < len(m.runs))
	k.Newer.SetEnabled(trace && m.run > 0)
}
