package tui

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/inspector"
	"github.com/steer-tui/steer/tui/dialog"
	"github.com/steer-tui/steer/tui/inspect"
	"github.com/steer-tui/steer/tui/msgs"
)

// An open inspector is an overlay over the transcript (tui/inspect). Its
// view is read through the runtime facade when it opens, again every
// inspectEvery (what other steer processes change shows up, and
// countdowns move) and at once when the runtime reports a change (an
// attempt failed, an engine was quarantined, a run started or ended). The trace needs no reads
// while this screen has seen runs: their events keep it.

// inspectEvery is how often an open inspector redraws and reads its view
// again.
const inspectEvery = time.Second

// inspectTimeout bounds one read of an inspector's view.
const inspectTimeout = 5 * time.Second

// inspectRecent is how many of the latest things an inspector lists (the
// trace's stored runs).
const inspectRecent = 20

// inspectTickMsg is the open inspector's clock; gen names the opening it
// belongs to, so that the ticks of a closed one stop.
type inspectTickMsg struct{ gen uint64 }

// inspectorLoadedMsg carries an inspector's view as its Read made it.
type inspectorLoadedMsg struct {
	which msgs.Inspector
	view  any
	err   error
}

// clearedMsg says how a clear in inspector which went: what was cleared,
// in words.
type clearedMsg struct {
	which msgs.Inspector
	// verb and past are the clear's words ("" is clear, cleared).
	verb, past string
	what       string
	err        error
}

func (m Model) inspectDeps() inspect.Deps {
	return inspect.Deps{Styles: m.styles.Inspect, Keys: m.inspectKeys(), Now: m.opts.Now}
}

// handleOpenInspector opens the inspector slash command which opens
// (replacing one already open).
func (m Model) handleOpenInspector(which msgs.Inspector) (Model, tea.Cmd) {
	ins, ok := inspector.ByCommand(string(which))
	if !ok {
		return m.hint(fmt.Sprintf("no inspector %q", which))
	}
	m.inspector, m.inspecting = inspect.New(m.inspectDeps(), ins), true
	m.inspectGen++
	m.inspectPending = false
	if m.showsTraceLog() {
		m.inspector.SetView(inspector.RunsView{Seen: m.traces.Runs()})
	}
	m = m.loadInspector()
	return m, m.inspectTick()
}

// showsTraceLog says the open inspector is the trace and this screen has
// seen runs: their events keep it, with no read.
func (m Model) showsTraceLog() bool {
	return m.inspector.Inspector() == inspector.Runs && m.traces.Len() > 0
}

func (m Model) handleCloseInspector() (Model, tea.Cmd) {
	m.inspecting = false
	m.inspectGen++
	return m, nil
}

func (m Model) inspectTick() tea.Cmd {
	gen := m.inspectGen
	return tea.Tick(inspectEvery, func(time.Time) tea.Msg { return inspectTickMsg{gen: gen} })
}

// handleInspectTick redraws the open inspector with the clock and reads
// its view again, unless a read is still under way.
func (m Model) handleInspectTick(msg inspectTickMsg) (Model, tea.Cmd) {
	if !m.inspecting || msg.gen != m.inspectGen {
		return m, nil
	}
	m.inspector.Tick()
	if !m.inspectPending {
		m = m.loadInspector()
	}
	return m, m.inspectTick()
}

// loadInspector reads the open inspector's view through its Read; the
// trace of runs this screen has seen needs no read.
func (m Model) loadInspector() Model {
	if m.showsTraceLog() {
		return m
	}
	ins, rt := m.inspector.Inspector(), m.rt
	q := inspector.Query{Session: m.sessionID, Recent: inspectRecent}
	m.inspectPending = true
	m.latest[topicInspect] = m.calls.submit(call{topic: topicInspect, run: func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), inspectTimeout)
		defer cancel()
		v, err := ins.Read(ctx, rt, q)
		if errors.Is(err, runner.ErrNoRecords) {
			v, err = nil, nil // no state directory: nothing stored to show
		}
		return inspectorLoadedMsg{which: msgs.Inspector(ins.Command()), view: v, err: err}
	}})
	return m
}

// reloadInspector reads the open inspector's view again at once when it
// shows what changed.
func (m Model) reloadInspector(changed ...msgs.Inspector) Model {
	if !m.inspecting {
		return m
	}
	for _, c := range changed {
		if c == m.inspector.Which() {
			return m.loadInspector()
		}
	}
	return m
}

func (m Model) handleInspectorLoaded(msg inspectorLoadedMsg) (Model, tea.Cmd) {
	m.inspectPending = false
	if !m.inspecting || msg.which != m.inspector.Which() || m.showsTraceLog() {
		return m, nil
	}
	if msg.err != nil {
		m.inspector.SetProblem(msg.err.Error())
	} else {
		m.inspector.SetView(msg.view)
	}
	return m, nil
}

// handleAskClear asks before clearing a row's target (a cooldown, a
// quarantine) as the inspector's Clear says.
func (m Model) handleAskClear(msg msgs.AskClearMsg) (Model, tea.Cmd) {
	ins, ok := inspector.ByCommand(string(msg.Which))
	if !ok || ins.Clear() == nil {
		return m, nil
	}
	c := ins.Clear()
	title := capitalized(c.Action()) + " " + c.Object(msg.Target) + "?"
	clear := msgs.ClearMsg{Which: msg.Which, Target: msg.Target}
	items := []dialog.Item{{Label: capitalized(c.Action()), Shortcut: "y", Msg: clear}, {Label: "Keep", Shortcut: "n"}}
	return m.openDialog(dialog.NewQuestion(m.dialogDeps(), title, c.Consequence, items, nil)), nil
}

// handleClear clears what the user confirmed, through the inspector's
// Clear.
func (m Model) handleClear(msg msgs.ClearMsg) (Model, tea.Cmd) {
	ins, ok := inspector.ByCommand(string(msg.Which))
	if !ok || ins.Clear() == nil {
		return m, nil
	}
	c, rt, target := ins.Clear(), m.rt, msg.Target
	m.calls.submit(call{run: func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), inspectTimeout)
		defer cancel()
		return clearedMsg{which: msg.Which, verb: c.Action(), past: c.Past(), what: c.Object(target), err: c.Live(ctx, rt, target)}
	}})
	return m, nil
}

func (m Model) handleClearCooldown(id string) (Model, tea.Cmd) {
	rt := m.rt
	m.calls.submit(call{run: func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), inspectTimeout)
		defer cancel()
		return clearedMsg{what: "the cooldown of " + id, err: rt.ClearProfile(ctx, id)}
	}})
	return m, nil
}

// handleChooseProfile sets the session's preferred (or, with lock, locked)
// auth profile; "" chooses none. It says what changed as a clear does.
func (m Model) handleChooseProfile(id string, lock bool) (Model, tea.Cmd) {
	rt := m.rt
	m.calls.submit(call{run: func() tea.Msg {
		if lock {
			what := "the lock: the session uses every profile again"
			if id != "" {
				what = "the lock: the session uses only " + id
			}
			return choseMsg{what: what, err: rt.LockProfile(context.Background(), id)}
		}
		what := "the preferred profile: none"
		if id != "" {
			what = "the preferred profile: " + id
		}
		return choseMsg{what: what, err: rt.PreferProfile(context.Background(), id)}
	}})
	return m, nil
}

// choseMsg says how a choice of profile went, in words.
type choseMsg struct {
	what string
	err  error
}

// handleChose reads the profiles again to show the choice.
func (m Model) handleChose(msg choseMsg) (Model, tea.Cmd) {
	m = m.reloadInspector(msgs.InspectProfiles)
	if msg.err != nil {
		return m.updateStatus(msgs.ErrorMsg{Action: "set " + msg.what, Err: msg.err})
	}
	return m.hint("set " + msg.what)
}

// handleCleared says how the clear went and reads what it changed.
func (m Model) handleCleared(msg clearedMsg) (Model, tea.Cmd) {
	m = m.reloadInspector(msg.which).checkHealth()
	verb, past := cmp.Or(msg.verb, "clear"), cmp.Or(msg.past, "cleared")
	if msg.err != nil {
		return m.updateStatus(msgs.ErrorMsg{Action: verb + " " + msg.what, Err: msg.err})
	}
	return m.hint(past + " " + msg.what)
}

// capitalized is s with its first letter upper case.
func capitalized(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
