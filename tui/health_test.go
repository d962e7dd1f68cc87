package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/failover"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/theme"
)

// healthModel is a root model over a runtime with profiles test:a and
// test:b and an empty ledger, its first reading answered (both available).
// Its calls never run: what it asks of the runtime shows in m.latest.
func healthModel(t *testing.T, clock *fakeClock) Model {
	t.Helper()
	rt := rotationRuntime(t, clock, &failover.MemLedger{})
	m := New(rt, Options{Theme: theme.Plain(), Profile: termenv.Ascii, Now: clock.Now})
	next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	next, _ = next.(Model).Update(callDoneMsg{id: m.latest[topicHealth], topic: topicHealth, msg: msgs.HealthChangedMsg{
		Profiles: []runner.ProfileView{{ID: "test:a", State: runner.ProfileAvailable}, {ID: "test:b", State: runner.ProfileAvailable}}}})
	return next.(Model)
}

// healthEvent is a run's events as the bridge delivers them.
func healthEvent(m Model, evs ...agent.Event) Model {
	next, _ := m.Update(msgs.RunEventMsg{RunID: m.runID, Events: evs})
	return next.(Model)
}

func healthNotice(m Model, n runner.Notice) Model {
	next, _ := m.Update(msgs.NoticeArrivedMsg{Notice: n})
	return next.(Model)
}

func cooldownEvent(info runner.CooldownInfo) agent.Event {
	return agent.Annotation{Kind: runner.AnnotationCooldown, Data: info}
}

// TestHealthFromEvents: the ❄ line and the badge come from the cooldown
// events and the notices alone — the ledger says nothing of the windows,
// and no reading is asked for — and the badge drops a window at its end.
func TestHealthFromEvents(t *testing.T) {
	until := agenttest.Epoch.Add(30 * time.Second)
	clock := func() string { return until.Local().Format(time.TimeOnly) }
	cooling := runner.CooldownInfo{Profile: "test:a", Model: "m1", State: runner.ProfileCooldown, Reason: "rate_limit",
		Until: until, Source: "schedule"}
	disabled := runner.CooldownInfo{Profile: "test:b", State: runner.ProfileDisabled, Reason: "billing", Until: until.Add(time.Hour),
		Source: "schedule"}
	cases := []struct {
		name  string
		steps func(m Model, c *fakeClock) Model
		lines []string // in the transcript
		badge string   // "" for none
	}{
		{"a cooldown", func(m Model, _ *fakeClock) Model { return healthEvent(m, cooldownEvent(cooling)) },
			[]string{"❄ profile test:a cools down for 30s (until " + clock() + "): rate_limit on m1"}, "⚠ 1 cooldown"},
		{"disabled", func(m Model, _ *fakeClock) Model { return healthEvent(m, cooldownEvent(disabled)) },
			[]string{"⊘ profile test:b is disabled for 1h00m (until " + until.Add(time.Hour).Local().Format(time.TimeOnly) + "): billing"}, "⚠ 1 disabled"},
		{"both, one event each", func(m Model, _ *fakeClock) Model {
			return healthEvent(healthEvent(m, cooldownEvent(cooling)), cooldownEvent(disabled))
		}, []string{"❄ profile test:a", "⊘ profile test:b"}, "⚠ 1 cooldown, 1 disabled"},
		{"cleared", func(m Model, _ *fakeClock) Model {
			m = healthEvent(m, cooldownEvent(cooling))
			return healthNotice(m, runner.Notice{Kind: runner.NoticeCooldownCleared,
				Data: runner.CooldownCleared{Profile: "test:a", Source: runner.ClearedByUser}})
		}, []string{"❄ profile test:a"}, ""},
		{"cleared for another model", func(m Model, _ *fakeClock) Model {
			m = healthEvent(m, cooldownEvent(cooling))
			return healthNotice(m, runner.Notice{Kind: runner.NoticeCooldownCleared,
				Data: runner.CooldownCleared{Profile: "test:a", Model: "m2", Source: runner.ClearedExpired}})
		}, nil, "⚠ 1 cooldown"},
		{"the window ends", func(m Model, c *fakeClock) Model {
			m = healthEvent(healthEvent(m, cooldownEvent(cooling)), cooldownEvent(disabled))
			c.Add(30 * time.Second)
			next, _ := m.Update(healthTickMsg{gen: m.healthGen})
			return next.(Model)
		}, nil, "⚠ 1 disabled"},
		{"an old timer", func(m Model, c *fakeClock) Model {
			m = healthEvent(m, cooldownEvent(cooling))
			c.Add(time.Minute)
			next, _ := m.Update(healthTickMsg{gen: m.healthGen - 1})
			return next.(Model)
		}, nil, "⚠ 1 cooldown"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clk := &fakeClock{t: agenttest.Epoch}
			m := healthModel(t, clk)
			asked := m.latest[topicHealth]
			m = c.steps(m, clk)
			view := m.View()
			for _, l := range c.lines {
				if strings.Count(view, l) != 1 {
					t.Errorf("the transcript has %q %d times:\n%s", l, strings.Count(view, l), view)
				}
			}
			status := statusLine(m)
			if c.badge == "" && strings.Contains(status, "⚠") || c.badge != "" && !strings.Contains(status, c.badge) {
				t.Errorf("status line %q, want badge %q", status, c.badge)
			}
			if m.latest[topicHealth] != asked {
				t.Errorf("a reading was asked for")
			}
		})
	}
}

// TestHealthEventDuringReading: a cooldown that comes while a reading is
// under way asks for another, since the one under way may have read the
// ledger before the window was written.
func TestHealthEventDuringReading(t *testing.T) {
	clk := &fakeClock{t: agenttest.Epoch}
	m := healthModel(t, clk).checkHealth()
	asked := m.latest[topicHealth]
	m = healthEvent(m, cooldownEvent(runner.CooldownInfo{Profile: "test:a", State: runner.ProfileCooldown, Reason: "auth",
		Until: agenttest.Epoch.Add(time.Minute)}))
	if m.latest[topicHealth] == asked {
		t.Fatal("no reading after the event")
	}
	next, _ := m.Update(callDoneMsg{id: asked, topic: topicHealth, msg: msgs.HealthChangedMsg{}})
	if s := statusLine(next.(Model)); !strings.Contains(s, "⚠ 1 cooldown") {
		t.Fatalf("the stale reading was shown: %q", s)
	}
}

// TestQuarantineNoticesReadTheEngines: the engines' badge is read, not
// built here (the TUI holds no engine types): a quarantine and its clear
// each ask for a reading.
func TestQuarantineNoticesReadTheEngines(t *testing.T) {
	for _, n := range []runner.Notice{
		{Kind: runner.NoticeQuarantine, Text: "context engine lcm quarantined", Data: runner.QuarantineInfo{Engine: "lcm"}},
		{Kind: runner.NoticeQuarantineCleared, Data: runner.QuarantineCleared{Engine: "lcm"}},
	} {
		t.Run(string(n.Kind), func(t *testing.T) {
			m := healthModel(t, &fakeClock{t: agenttest.Epoch})
			asked := m.latest[topicHealth]
			if m = healthNotice(m, n); m.latest[topicHealth] == asked {
				t.Errorf("no reading after %s", n.Kind)
			}
		})
	}
}

// TestStoreChecks: the health is read again only when the store's version
// moved since the last look, and every look schedules the next.
func TestStoreChecks(t *testing.T) {
	m := healthModel(t, &fakeClock{t: agenttest.Epoch})
	steps := []struct {
		msg  storeCheckedMsg
		read bool
	}{
		{storeCheckedMsg{version: 7, ok: true}, false}, // the first look only learns it
		{storeCheckedMsg{version: 7, ok: true}, false},
		{storeCheckedMsg{ok: false}, false},
		{storeCheckedMsg{version: 8, ok: true}, true},
		{storeCheckedMsg{version: 8, ok: true}, false},
	}
	for i, s := range steps {
		asked := m.latest[topicHealth]
		next, cmd := m.Update(callDoneMsg{id: m.latest[topicStore], topic: topicStore, msg: s.msg})
		m = next.(Model)
		if read := m.latest[topicHealth] != asked; read != s.read {
			t.Errorf("step %d (%+v): read %v, want %v", i, s.msg, read, s.read)
		}
		if cmd == nil {
			t.Errorf("step %d: no next look", i)
		}
	}
}

func TestNextWindowEnd(t *testing.T) {
	now := agenttest.Epoch
	at := func(d time.Duration) *time.Time { u := now.Add(d); return &u }
	cases := []struct {
		name  string
		views []runner.ProfileView
		want  time.Duration
		ok    bool
	}{
		{"none", []runner.ProfileView{{State: runner.ProfileAvailable}}, 0, false},
		{"earliest", []runner.ProfileView{{State: runner.ProfileCooldown, Until: at(time.Minute)},
			{State: runner.ProfileDisabled, Until: at(10 * time.Second)}}, 10*time.Second + healthSoonest/2, true},
		{"already over", []runner.ProfileView{{State: runner.ProfileCooldown, Until: at(-time.Minute)}}, healthSoonest, true},
		{"no end", []runner.ProfileView{{State: runner.ProfileCooldown}}, 0, false},
	}
	for _, c := range cases {
		if got, ok := nextWindowEnd(c.views, now); got != c.want || ok != c.ok {
			t.Errorf("%s: %v %v, want %v %v", c.name, got, ok, c.want, c.ok)
		}
	}
}
