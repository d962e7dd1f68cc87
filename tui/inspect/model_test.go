package inspect

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner/inspector"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/theme"
)

// newInspector opens inspector which at width×height on the plain theme,
// with a clock the test moves.
func newInspector(which msgs.Inspector, now *time.Time, width, height int) Model {
	ins, _ := inspector.ByCommand(string(which))
	m := New(Deps{Styles: theme.NewStyles(theme.Plain()).Inspect, Keys: DefaultKeyMap(), Now: func() time.Time { return *now }}, ins)
	m.SetSize(width, height)
	return m
}

func press(m Model, keys ...tea.KeyMsg) (Model, []tea.Msg) {
	var out []tea.Msg
	for _, k := range keys {
		var cmd tea.Cmd
		m, cmd = m.Update(k)
		if cmd != nil {
			out = append(out, cmd())
		}
	}
	return m, out
}

var (
	down   = tea.KeyMsg{Type: tea.KeyDown}
	leftK  = tea.KeyMsg{Type: tea.KeyLeft}
	rightK = tea.KeyMsg{Type: tea.KeyRight}
	clearK = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'c'}}
)

// TestProfilesInspector: loading, then the table; the countdown moves with
// the clock on Tick; c asks to clear only a profile in a window.
func TestProfilesInspector(t *testing.T) {
	now := epoch
	m := newInspector(msgs.InspectProfiles, &now, 120, 14)
	if !strings.Contains(m.View(), "loading…") {
		t.Fatalf("before its view arrives:\n%s", m.View())
	}
	m.SetView(inspector.ProfilesView{Profiles: profiles(epoch)})
	checkView(t, m, 120, 14)
	if !strings.Contains(m.View(), "30s") {
		t.Fatalf("no countdown:\n%s", m.View())
	}
	now = epoch.Add(10 * time.Second)
	m.Tick()
	if !strings.Contains(m.View(), "20s") || strings.Contains(m.View(), "30s") {
		t.Fatalf("the countdown did not move with the clock:\n%s", m.View())
	}
	m, out := press(m, clearK)
	if len(out) != 1 || out[0] != (msgs.AskClearMsg{Which: msgs.InspectProfiles, Target: "scripted:primary"}) {
		t.Fatalf("c on primary sent %v", out)
	}
	m, out = press(m, down, clearK)
	if len(out) != 0 || m.Keys().Clear.Enabled() {
		t.Fatalf("c on an available profile sent %v", out)
	}
	// A refresh keeps the selection on the same profile.
	m.SetView(inspector.ProfilesView{Profiles: profiles(epoch)})
	if r, _ := m.Selected(); r.Key != "scripted:backup" {
		t.Fatalf("after a refresh the selection is on %q", r.Key)
	}
	// Also when the rows come back in another order.
	ps := profiles(epoch)
	reordered := append(ps[1:], ps[0]) // backup first
	m.SetView(inspector.ProfilesView{Profiles: reordered})
	if r, _ := m.Selected(); r.Key != "scripted:backup" {
		t.Fatalf("after a reordering refresh the selection is on %q", r.Key)
	}
}

func TestEnginesInspector(t *testing.T) {
	now := epoch.Add(5 * time.Second)
	m := newInspector(msgs.InspectEngines, &now, 120, 16)
	m.SetView(crashed())
	m, _ = press(m, down)
	checkView(t, m, 120, 16)
	if _, out := press(m, clearK); len(out) != 1 || out[0] != (msgs.AskClearMsg{Which: msgs.InspectEngines, Target: "crashy"}) {
		t.Fatalf("c on crashy sent %v", out)
	}
}

// TestTraceInspector: the newest run first; ← and → page through the runs;
// a new run keeps an older one on screen.
func TestTraceInspector(t *testing.T) {
	now := epoch.Add(2 * time.Second)
	var l TraceLog
	l = l.Record(append(append([]agent.Event{}, rotation...), answered...), epoch.Add(time.Second))
	l = l.Record([]agent.Event{agent.AgentStart{}}, epoch.Add(2*time.Second))
	m := newInspector(msgs.InspectTrace, &now, 120, 14)
	m.SetView(inspector.RunsView{Seen: l.Runs()})
	if !strings.Contains(m.View(), "no attempts") || m.Keys().Newer.Enabled() || !m.Keys().Older.Enabled() {
		t.Fatalf("the newest run (nothing asked yet):\n%s", m.View())
	}
	m, _ = press(m, leftK)
	checkView(t, m, 120, 14)
	l = l.Record([]agent.Event{agent.AgentEnd{}, agent.AgentStart{}}, epoch.Add(3*time.Second))
	m.SetView(inspector.RunsView{Seen: l.Runs()})
	if !strings.Contains(m.View(), "scripted:primary → scripted:backup") {
		t.Fatalf("a new run moved the view off the run shown:\n%s", m.View())
	}
	m, _ = press(m, rightK, rightK)
	if !strings.Contains(m.View(), "the last run (3 of 3)") {
		t.Fatalf("→ did not reach the newest run:\n%s", m.View())
	}
}

// TestInspectorFits: whatever the size, the box fits its area (but for
// its borders, title, header and one row, which it always has).
func TestInspectorFits(t *testing.T) {
	now := epoch
	for _, size := range [][2]int{{120, 14}, {60, 10}, {30, 6}, {12, 3}} {
		m := newInspector(msgs.InspectEngines, &now, size[0], size[1])
		m.SetView(crashed())
		lines := strings.Split(m.View(), "\n")
		if len(lines) > max(size[1], 5) {
			t.Errorf("%v: %d lines", size, len(lines))
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > max(size[0], 14) {
				t.Errorf("%v: a line is %d wide: %q", size, w, l)
			}
		}
	}
}

func checkView(t *testing.T, m Model, width, height int) {
	t.Helper()
	view := m.View()
	if n := len(strings.Split(view, "\n")); n > height {
		t.Errorf("%d lines, more than %d", n, height)
	}
	golden.RequireEqual(t, []byte(view))
}
