package tui

import (
	"context"
	"slices"
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
// annotations itself). Health is read through the facade at start,
// whenever an event says it may have changed (a failed attempt, a
// quarantine, a run's end, a clear), when the earliest window ends, and
// every healthEvery for what other steer processes change. The meter is
// measured after every message and compaction.
//
// A profile that goes into cooldown gets a line in the transcript: a failed
// attempt makes its profile a suspect, and the health read after it shows
// whether the ledger put it in a window (not every failure does, SPEC
// §5.3), until when and why.

const (
	// healthEvery is how often health is read when nothing says it changed.
	healthEvery = time.Minute
	// healthSoonest is the least time between two readings that wait for a
	// window to end.
	healthSoonest = time.Second
	// maxAnnounced bounds the windows remembered as announced.
	maxAnnounced = 32
)

// healthTickMsg asks for the health reading numbered gen: only the latest
// scheduled one counts.
type healthTickMsg struct{ gen uint64 }

// window is a profile's window that a notice announced.
type window struct {
	profile string
	until   time.Time
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

// measure asks for the context meter.
func (m Model) measure() Model {
	rt := m.rt
	m.latest[topicMeter] = m.calls.submit(call{topic: topicMeter, run: func() tea.Msg {
		return msgs.ContextMeasuredMsg{Meter: rt.ContextMeter()}
	}})
	return m
}

// handleHealth shows a reading: the badge, the cooldowns of suspects, and
// the open inspector if it shows the same. The next reading is scheduled.
func (m Model) handleHealth(msg msgs.HealthChangedMsg) (Model, tea.Cmd) {
	m.health = msg
	m, _ = m.updateStatus(msg)
	m = m.announceWindows(msg.Profiles)
	if m.inspecting {
		switch m.inspector.Which() {
		case msgs.InspectProfiles:
			m.inspector.SetView(inspector.ProfilesView{Profiles: msg.Profiles})
		case msgs.InspectEngines:
			m.inspector.SetView(msg.Engines)
		}
	}
	m.healthGen++
	gen := m.healthGen
	return m, tea.Tick(nextHealthCheck(msg.Profiles, m.opts.Now()), func(time.Time) tea.Msg { return healthTickMsg{gen: gen} })
}

// nextHealthCheck is how long until the next reading: just after the
// earliest window ends (the badge drops it), else healthEvery.
func nextHealthCheck(views []runner.ProfileView, now time.Time) time.Duration {
	wait := healthEvery
	for _, v := range views {
		if v.Until != nil {
			wait = min(wait, max(v.Until.Sub(now)+healthSoonest/2, healthSoonest))
		}
	}
	return wait
}

func (m Model) handleHealthTick(msg healthTickMsg) (Model, tea.Cmd) {
	if msg.gen != m.healthGen {
		return m, nil
	}
	return m.checkHealth(), nil
}

// announceWindows adds a line to the transcript for each suspect the
// reading shows in a window not announced yet.
func (m Model) announceWindows(views []runner.ProfileView) Model {
	now := m.opts.Now()
	for _, v := range views {
		if !slices.Contains(m.suspects, v.ID) || v.State == runner.ProfileAvailable || v.Until == nil {
			continue
		}
		w := window{profile: v.ID, until: *v.Until}
		if slices.Contains(m.announced, w) {
			continue
		}
		m.announced = append(m.announced, w)
		if len(m.announced) > maxAnnounced {
			m.announced = m.announced[1:]
		}
		m, _ = m.updateChat(msgs.NoteMsg{Text: inspector.WindowNotice(v, now)})
	}
	m.suspects = nil
	return m
}

// watchEvents records the trace and acts on what the events change: a
// failed attempt may have put its profile in a window, a quarantine
// changes the engines, a message or a compaction the context's size.
func (m Model) watchEvents(events []agent.Event) Model {
	before := m.traces.Version()
	m.traces = m.traces.Record(events, m.opts.Now())
	if m.inspecting && m.inspector.Which() == msgs.InspectTrace && m.traces.Version() != before {
		m.inspector.SetView(inspector.RunsView{Seen: m.traces.Runs()})
	}
	health, measure, lanes := false, false, false
	for _, ev := range events {
		switch e := ev.(type) {
		case agent.AgentStart:
			lanes = true
		case agent.Annotation:
			switch data := e.Data.(type) {
			case runner.AttemptInfo:
				if e.Kind == runner.AnnotationAttemptEnd && data.Reason != "" {
					m.suspects = append(m.suspects, data.Profile)
					health = true
				}
			case runner.QuarantineInfo:
				health = true
			case runner.CompactionEnd:
				measure = true
			}
		case agent.MessageEnd, agent.ContextReplaced:
			measure = true
		case agent.AgentEnd:
			health, measure, lanes = true, true, true
		}
	}
	if lanes {
		m = m.reloadInspector(msgs.InspectLanes)
	}
	if health {
		m = m.checkHealth().reloadInspector(msgs.InspectProfiles, msgs.InspectEngines)
	}
	if measure {
		m = m.measure()
	}
	return m
}

// handleNotice shows a runtime notice: a failed save in the status bar, a
// quarantine outside a request in the transcript too; a cleared cooldown
// reads the profiles again.
func (m Model) handleNotice(msg msgs.NoticeArrivedMsg) (Model, tea.Cmd) {
	if msg.Notice.Kind == runner.NoticeQuarantine {
		if q, ok := msg.Notice.Data.(runner.QuarantineInfo); !ok || q.First() {
			m, _ = m.updateChat(msgs.NoteMsg{Text: "⚠ " + msg.Notice.Text})
		}
		m = m.checkHealth().reloadInspector(msgs.InspectEngines)
	}
	if msg.Notice.Kind == runner.NoticeCooldownCleared { // a window that ended: the badge and /profiles change
		m = m.checkHealth().reloadInspector(msgs.InspectProfiles)
	}
	return m.updateStatus(msg)
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
