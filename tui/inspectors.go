package tui

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent/runner"
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

// traceRuns is how many stored runs the trace reads.
const traceRuns = 20

// inspectTickMsg is the open inspector's clock; gen names the opening it
// belongs to, so that the ticks of a closed one stop.
type inspectTickMsg struct{ gen uint64 }

// inspectorLoadedMsg carries an inspector's view as read.
type inspectorLoadedMsg struct {
	which    msgs.Inspector
	profiles []runner.ProfileView
	engines  runner.EnginesView
	lanes    runner.LanesView
	runs     []runner.RunView
	err      error
}

// clearedMsg says how a clear went: what was cleared, in words.
type clearedMsg struct {
	what string
	err  error
}

func (m Model) inspectDeps() inspect.Deps {
	return inspect.Deps{Styles: m.styles.Inspect, Keys: inspect.DefaultKeyMap(), Now: m.opts.Now}
}

// handleOpenInspector opens inspector which (replacing one already open).
func (m Model) handleOpenInspector(which msgs.Inspector) (Model, tea.Cmd) {
	m.inspector, m.inspecting = inspect.New(m.inspectDeps(), which), true
	m.inspectGen++
	m.inspectPending = false
	if which == msgs.InspectTrace && m.traces.Len() > 0 {
		m.inspector.SetRuns(m.traces.Runs())
	}
	m = m.loadInspector()
	return m, m.inspectTick()
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

// loadInspector reads the open inspector's view; the trace of runs this
// screen has seen needs no read.
func (m Model) loadInspector() Model {
	which, rt, sessionID := m.inspector.Which(), m.rt, m.sessionID
	if which == msgs.InspectTrace && m.traces.Len() > 0 {
		return m
	}
	m.inspectPending = true
	m.latest[topicInspect] = m.calls.submit(call{topic: topicInspect, run: func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), inspectTimeout)
		defer cancel()
		msg := inspectorLoadedMsg{which: which}
		switch which {
		case msgs.InspectProfiles:
			msg.profiles, msg.err = rt.Profiles(ctx)
		case msgs.InspectEngines:
			msg.engines, msg.err = rt.Engines(ctx)
		case msgs.InspectLanes:
			msg.lanes, msg.err = rt.Lanes(ctx)
		case msgs.InspectTrace:
			msg.runs, msg.err = rt.Runs(ctx, sessionID, traceRuns)
			if errors.Is(msg.err, runner.ErrNoRecords) {
				msg.err = nil // no state directory: no stored runs
			}
		}
		return msg
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
	if !m.inspecting || msg.which != m.inspector.Which() {
		return m, nil
	}
	switch {
	case msg.err != nil:
		m.inspector.SetProblem(msg.err.Error())
	case msg.which == msgs.InspectProfiles:
		m.inspector.SetProfiles(msg.profiles)
	case msg.which == msgs.InspectEngines:
		m.inspector.SetEngines(msg.engines)
	case msg.which == msgs.InspectLanes:
		m.inspector.SetLanes(msg.lanes)
	case msg.which == msgs.InspectTrace && m.traces.Len() == 0:
		m.inspector.SetRuns(inspect.RunsFromRecords(msg.runs))
	}
	return m, nil
}

// handleAskClear asks before clearing a cooldown or a quarantine.
func (m Model) handleAskClear(msg msgs.AskClearMsg) (Model, tea.Cmd) {
	var title, text string
	var clear tea.Msg
	switch msg.Which {
	case msgs.InspectProfiles:
		title = "Clear the cooldown of " + msg.Target + "?"
		text = "The profile is used again at once, by every steer process on this state directory.\n" +
			"Its error count starts over; its history stays."
		clear = msgs.ClearCooldownMsg{Profile: msg.Target}
	case msgs.InspectEngines:
		title = "Clear the quarantine of " + msg.Target + "?"
		text = "The engine is tried again from the next request on, by every steer process on this\n" +
			"state directory; should it fail again, it is quarantined again."
		clear = msgs.ClearQuarantineMsg{Engine: msg.Target}
	default:
		return m, nil
	}
	items := []dialog.Item{{Label: "Clear", Shortcut: "y", Msg: clear}, {Label: "Keep", Shortcut: "n"}}
	return m.openDialog(dialog.NewQuestion(m.dialogDeps(), title, text, items, nil)), nil
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
			return choseMsg{what: what, err: rt.LockProfile(id)}
		}
		what := "the preferred profile: none"
		if id != "" {
			what = "the preferred profile: " + id
		}
		return choseMsg{what: what, err: rt.PreferProfile(id)}
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

func (m Model) handleClearQuarantine(engine string) (Model, tea.Cmd) {
	rt := m.rt
	m.calls.submit(call{run: func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), inspectTimeout)
		defer cancel()
		ok, err := rt.ClearQuarantine(ctx, engine)
		if err == nil && !ok {
			err = fmt.Errorf("%s has no quarantine", engine)
		}
		return clearedMsg{what: "the quarantine of " + engine, err: err}
	}})
	return m, nil
}

// handleCleared says how the clear went and reads what it changed.
func (m Model) handleCleared(msg clearedMsg) (Model, tea.Cmd) {
	m = m.reloadInspector(msgs.InspectProfiles, msgs.InspectEngines).checkHealth()
	if msg.err != nil {
		return m.updateStatus(msgs.ErrorMsg{Action: "clear " + msg.what, Err: msg.err})
	}
	return m.hint("cleared " + msg.what)
}
