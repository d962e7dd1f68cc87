package tui

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent/agenttest"
)

// TestSwitchWhileARunGoesOn: the user starts a run, opens a new session
// while it works, runs and interrupts there; the first run goes on in the
// background (a badge says so), its answer is saved and not shown, and
// resuming the first session shows it.
func TestSwitchWhileARunGoesOn(t *testing.T) {
	gates := &agenttest.Gates{}
	host, store := newStoredHost(t, gates.Stream)
	h := newHarness(t, host, 100, 30, func(o *Options) { o.Sessions = SessionsOf(host) })

	h.typeText("first")
	h.key(tea.KeyEnter, false)
	h.waitFor("the first run", func(m Model) bool { return m.running })
	firstID := host.SessionID()
	h.command("/new")
	h.waitFor("the new session with the badge", func(m Model) bool {
		return !m.running && m.sessionID != firstID && strings.Contains(statusLine(m), "▶ 1 in background")
	})
	h.waitView("new session")

	h.typeText("second")
	h.key(tea.KeyEnter, false)
	h.waitFor("the second run", func(m Model) bool { return m.running })
	h.key(tea.KeyEsc, false)
	h.waitFor("the second run to stop", func(m Model) bool { return !m.running })
	if bg := host.Background(); len(bg) != 1 || bg[0].SessionID != firstID {
		t.Fatalf("after Esc in the second session, background = %+v; want the first still running", bg)
	}

	gates.Open("first")
	h.waitFor("the badge to go", func(m Model) bool { return !strings.Contains(statusLine(m), "in background") })
	if v := h.m.View(); strings.Contains(v, "answer to first") {
		t.Fatalf("the background session's answer shows in the second session:\n%s", v)
	}
	saved, err := store.LoadTranscript(context.Background(), firstID)
	if err != nil || len(saved) != 2 || saved[1].TextContent() != "answer to first" {
		t.Fatalf("the background run saved %+v, %v", saved, err)
	}

	h.command("/sessions")
	h.waitFor("the picker", func(m Model) bool { return len(m.dialogs) == 1 })
	h.waitView(firstID)
	h.pick("› first")
	h.key(tea.KeyEnter, false)
	h.waitView("resumed: first", "answer to first")
}

// TestSwitchBackToARunningSession: the picker marks a session that runs in
// the background; switching to it shows its run as it stands and then its
// answer, once.
func TestSwitchBackToARunningSession(t *testing.T) {
	gates := &agenttest.Gates{}
	host, _ := newStoredHost(t, gates.Stream)
	h := newHarness(t, host, 100, 30, func(o *Options) { o.Sessions = SessionsOf(host) })
	h.typeText("first")
	h.key(tea.KeyEnter, false)
	h.waitFor("the first run", func(m Model) bool { return m.running })
	h.command("/new")
	h.waitFor("the badge", func(m Model) bool { return strings.Contains(statusLine(m), "▶ 1 in background") })

	h.command("/sessions")
	h.waitView("running in the background")
	for try := 0; try < 100 && !strings.Contains(h.m.View(), "first"); try++ { // its title is saved a moment after its prompt
		h.key(tea.KeyEsc, false)
		h.waitFor("the picker to close", func(m Model) bool { return len(m.dialogs) == 0 })
		h.command("/sessions")
		h.waitView("running in the background")
	}
	h.pick("› first")
	h.key(tea.KeyEnter, false)
	h.waitFor("the running session", func(m Model) bool {
		return m.running && strings.Contains(m.View(), "resumed: first") && !strings.Contains(statusLine(m), "in background")
	})
	gates.Open("first")
	h.waitFor("the answer", func(m Model) bool { return !m.running })
	if n := strings.Count(h.m.View(), "answer to first"); n != 1 {
		t.Fatalf("the answer shows %d times:\n%s", n, h.m.View())
	}
}

// pick moves the picker's selection down to the row that shows row.
func (h *harness) pick(row string) {
	h.t.Helper()
	for range 10 {
		h.key(tea.KeyUp, false)
	}
	for range 10 {
		if strings.Contains(h.m.View(), row) {
			return
		}
		h.key(tea.KeyDown, false)
	}
	h.t.Fatalf("no row %q in the picker:\n%s", row, h.m.View())
}
