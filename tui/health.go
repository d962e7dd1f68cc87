package tui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/inspector"
	"github.com/steer-tui/steer/tui/msgs"
)

// The runtime's health as the status bar shows it: a badge counting the
// auth profiles that cannot be used and the context engines quarantined,
// and the context meter (the profile in use the bar reads from the attempt
// annotations itself). The runner tells, the screen listens (runner's
// facts.go):
//
//	event                       effect
//	start                       one reading of the profiles and engines
//	cooldown (stream)           the profile's window in the badge, its ❄ line
//	                            in the transcript
//	cooldown_cleared (notice)   the profile is available again
//	window end (a timer)        the windows that ended drop from the badge
//	quarantine (either)         the engines read again (its ⚠ line outside a
//	                            request)
//	run end, background runs    a reading: what this process's other runs
//	                            (sub-agents, background sessions) changed
//	store version moved         a reading: another steer process changed the
//	                            ledger or the quarantines
//
// The store's version is one cheap read (runner.StoreVersion) every
// storeCheckEvery; nothing else reads on a clock. The meter is measured
// after every message and compaction.

const (
	// storeCheckEvery is how often the store's version is read, for what
	// other steer processes change.
	storeCheckEvery = 5 * time.Second
	// healthSoonest is the least wait for a window's end, and half of it
	// the margin after it.
	healthSoonest = time.Second
)

// healthTickMsg says the earliest window known ends now: only the latest
// scheduled one (gen) counts.
type healthTickMsg struct{ gen uint64 }

// storeTickMsg asks for the store's version.
type storeTickMsg struct{}

// storeCheckedMsg is the store's version, when it could be read.
type storeCheckedMsg struct {
	version uint64
	ok      bool
}

// checkHealth reads the profiles and engines for the badge.
func (m Model) checkHealth() Model {
	rt := m.rt
	m.latest[topicHealth] = m.calls.submit(call{topic: topicHealth, run: func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), inspectTimeout)
		defer cancel()
		profiles, err := rt.Profiles(ctx)
		if err != nil {
			return nil // the badge keeps what it showed; the next reading may work
		}
		engines, err := rt.Engines(ctx)
		if err != nil {
			return nil
		}
		return msgs.HealthChangedMsg{Profiles: profiles, Engines: engines}
	}})
	return m
}

// checkStore reads the store's version. Submitted before a reading, on the
// same lane, it is read first: a change between the two is read again.
func (m Model) checkStore() Model {
	rt := m.rt
	m.latest[topicStore] = m.calls.submit(call{topic: topicStore, run: func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), inspectTimeout)
		defer cancel()
		v, err := rt.StoreVersion(ctx)
		return storeCheckedMsg{version: v, ok: err == nil}
	}})
	return m
}

func (m Model) handleStoreTick() (Model, tea.Cmd) { return m.checkStore(), m.checkThemeFile() }

// handleStoreChecked reads the health again when another process moved the
// store's version, and schedules the next look.
func (m Model) handleStoreChecked(msg storeCheckedMsg) (Model, tea.Cmd) {
	if msg.ok {
		if m.storeKnown && msg.version != m.storeVersion {
			m = m.checkHealth().reloadInspector(msgs.InspectProfiles, msgs.InspectEngines)
		}
		m.storeVersion, m.storeKnown = msg.version, true
	}
	return m, tea.Tick(storeCheckEvery, func(time.Time) tea.Msg { return storeTickMsg{} })
}

// measure asks for the context meter.
func (m Model) measure() Model {
	rt := m.rt
	m.latest[topicMeter] = m.calls.submit(call{topic: topicMeter, run: func() tea.Msg {
		return msgs.ContextMeasuredMsg{Meter: rt.ContextMeter()}
	}})
	return m
}

// handleHealth shows a reading: the badge and the open inspector if it
// shows the same.
func (m Model) handleHealth(msg msgs.HealthChangedMsg) (Model, tea.Cmd) {
	m.health = msg
	if m.inspecting {
		switch m.inspector.Which() {
		case msgs.InspectProfiles:
			m.inspector.SetView(inspector.ProfilesView{Profiles: msg.Profiles})
		case msgs.InspectEngines:
			m.inspector.SetView(msg.Engines)
		}
	}
	return m.showHealth()
}

// showHealth hands the health to the badge and waits for the earliest
// window's end.
func (m Model) showHealth() (Model, tea.Cmd) {
	m, _ = m.updateStatus(m.health)
	m.healthGen++
	wait, ok := nextWindowEnd(m.health.Profiles, m.opts.Now())
	if !ok {
		return m, nil
	}
	gen := m.healthGen
	return m, tea.Tick(wait, func(time.Time) tea.Msg { return healthTickMsg{gen: gen} })
}

// nextWindowEnd is how long until just after the earliest window ends;
// false when no profile is in one.
func nextWindowEnd(views []runner.ProfileView, now time.Time) (time.Duration, bool) {
	var wait time.Duration
	found := false
	for _, v := range views {
		if v.State == runner.ProfileAvailable || v.Until == nil {
			continue
		}
		w := max(v.Until.Sub(now)+healthSoonest/2, healthSoonest)
		if !found || w < wait {
			wait, found = w, true
		}
	}
	return wait, found
}

// handleHealthTick drops the windows that ended from the badge.
func (m Model) handleHealthTick(msg healthTickMsg) (Model, tea.Cmd) {
	if msg.gen != m.healthGen {
		return m, nil
	}
	now := m.opts.Now()
	profiles := make([]runner.ProfileView, len(m.health.Profiles))
	for i, v := range m.health.Profiles {
		if v.State != runner.ProfileAvailable && v.Until != nil && !v.Until.After(now) {
			v = available(v)
		}
		profiles[i] = v
	}
	m.health.Profiles = profiles
	return m.changedHealth(msgs.InspectProfiles)
}

// changedHealth shows health that an event changed. A reading in flight
// may have read the store before the event's change: it is read again.
func (m Model) changedHealth(which msgs.Inspector) (Model, tea.Cmd) {
	if m.answered[topicHealth] < m.latest[topicHealth] {
		m = m.checkHealth()
	}
	return m.reloadInspector(which).showHealth()
}

// applyCooldown shows a cooldown event: its line in the transcript and the
// window in the badge.
func (m Model) applyCooldown(info runner.CooldownInfo) Model {
	reason, source, until := info.Reason, info.Source, info.Until
	window := func(v runner.ProfileView) runner.ProfileView {
		v.State, v.Model, v.Reason, v.UntilSource, v.Until = info.State, info.Model, &reason, &source, &until
		return v
	}
	m.health.Profiles = withProfile(m.health.Profiles, info.Profile, window)
	v := window(runner.ProfileView{ID: info.Profile})
	m, _ = m.updateChat(msgs.NoteMsg{Text: inspector.WindowNotice(v, m.opts.Now())})
	return m
}

// applyCleared shows a cooldown_cleared notice: the window is over (one
// scoped to another model than the one shown changes nothing shown).
func (m Model) applyCleared(c runner.CooldownCleared) Model {
	m.health.Profiles = withProfile(m.health.Profiles, c.Profile, func(v runner.ProfileView) runner.ProfileView {
		if c.Model != "" && c.Model != v.Model {
			return v
		}
		return available(v)
	})
	return m
}

// withProfile is views with profile id's changed by f, added when missing
// (an event before the first reading). views is not modified: a reading
// may be shared with the inspector.
func withProfile(views []runner.ProfileView, id string, f func(runner.ProfileView) runner.ProfileView) []runner.ProfileView {
	out := make([]runner.ProfileView, 0, len(views)+1)
	found := false
	for _, v := range views {
		if v.ID == id {
			v, found = f(v), true
		}
		out = append(out, v)
	}
	if !found {
		out = append(out, f(runner.ProfileView{ID: id, State: runner.ProfileAvailable}))
	}
	return out
}

// available is v with its window over.
func available(v runner.ProfileView) runner.ProfileView {
	v.State, v.Model, v.Reason, v.UntilSource, v.Until = runner.ProfileAvailable, "", nil, nil, nil
	return v
}

// watchEvents records the trace and acts on what the events tell: a
// cooldown, a quarantine, a message or a compaction that changes the
// context's size, a run's end.
func (m Model) watchEvents(events []agent.Event) (Model, tea.Cmd) {
	before := m.traces.Version()
	m.traces = m.traces.Record(events, m.opts.Now())
	if m.inspecting && m.inspector.Which() == msgs.InspectTrace && m.traces.Version() != before {
		m.inspector.SetView(inspector.RunsView{Seen: m.traces.Runs()})
	}
	cooled, read, measure, lanes := false, false, false, false
	for _, ev := range events {
		switch e := ev.(type) {
		case agent.AgentStart:
			lanes = true
		case agent.Annotation:
			switch data := e.Data.(type) {
			case runner.CooldownInfo:
				m, cooled = m.applyCooldown(data), true
			case runner.QuarantineInfo:
				read = true
			case runner.CompactionEnd:
				measure = true
			case []runner.BackgroundRun: // a background run ended or began
				read = true
			}
		case agent.MessageEnd, agent.ContextReplaced:
			measure = true
		case agent.AgentEnd:
			read, measure, lanes = true, true, true
		}
	}
	if lanes {
		m = m.reloadInspector(msgs.InspectLanes)
	}
	if read {
		m = m.checkHealth().reloadInspector(msgs.InspectProfiles, msgs.InspectEngines)
	}
	if measure {
		m = m.measure()
	}
	if cooled {
		return m.changedHealth(msgs.InspectProfiles)
	}
	return m, nil
}

// handleNotice shows a runtime notice: a failed save in the status bar, a
// quarantine outside a request in the transcript too (and the engines read
// again, as after a cleared quarantine); a cleared cooldown in the badge;
// a hook's outcome, and a server that cannot list its models or can again,
// in the transcript.
func (m Model) handleNotice(msg msgs.NoticeArrivedMsg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg.Notice.Kind {
	case runner.NoticeQuarantine:
		if q, ok := msg.Notice.Data.(runner.QuarantineInfo); !ok || q.First() {
			m, _ = m.updateChat(msgs.NoteMsg{Text: "⚠ " + msg.Notice.Text})
		}
		m = m.checkHealth().reloadInspector(msgs.InspectEngines)
	case runner.NoticeQuarantineCleared:
		m = m.checkHealth().reloadInspector(msgs.InspectEngines)
	case runner.NoticeCooldownCleared:
		if c, ok := msg.Notice.Data.(runner.CooldownCleared); ok {
			m, cmd = m.applyCleared(c).changedHealth(msgs.InspectProfiles)
		}
	case runner.NoticeHook: // a hook blocked, asked or failed: where it happened
		m, _ = m.updateChat(msgs.NoteMsg{Text: "⚙ " + msg.Notice.Text})
	case runner.NoticeDiscoveryFailed: // told once per outage (runner)
		m, _ = m.updateChat(msgs.NoteMsg{Text: "⚠ " + msg.Notice.Text + "; /model asks again"})
	case runner.NoticeDiscoveryRecovered:
		m, _ = m.updateChat(msgs.NoteMsg{Text: msg.Notice.Text})
	case runner.NoticeApprovalMode:
		m = m.handleModeNotice(msg.Notice)
	}
	m, status := m.updateStatus(msg)
	return m, tea.Batch(cmd, status)
}

// handleInspectKey opens the inspector the badge is about: the profiles
// when any cannot be used, else the engines.
func (m Model) handleInspectKey() (Model, tea.Cmd) {
	which := msgs.InspectEngines
	for _, v := range m.health.Profiles {
		if v.State != runner.ProfileAvailable {
			which = msgs.InspectProfiles
		}
	}
	return m.handleOpenInspector(which)
}
