package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/persistence"
	"github.com/steer-tui/steer/tui/msgs"
)

// TestSessionPickerDeletesAfterAsking: Ctrl+D on a session in the picker
// asks; n keeps it, y deletes it from disk and the picker lists the rest;
// the current session is refused without asking.
func TestSessionPickerDeletesAfterAsking(t *testing.T) {
	host, store := newStoredHost(t, agenttest.NewScript().Stream, "s_keep", "s_gone")
	// The fixture's sessions are created claimed, as a new session is;
	// s_gone is let go, as a session left behind is.
	if c, err := store.ClaimSession(context.Background(), "s_gone"); err != nil || c.Release(context.Background()) != nil {
		t.Fatalf("release s_gone: %v", err)
	}
	clk := &fakeClock{t: epoch}
	h := newHarness(t, host, 100, 24, func(o *Options) { o.Sessions = SessionsOf(host); o.Now = clk.Now })
	h.send(msgs.ResumeSessionMsg{ID: "s_keep"})
	h.waitFor("s_keep", func(m Model) bool { return m.sessionID == "s_keep" })
	answer := func(key string) { // alone, after a pause: a deliberate answer
		h.t.Helper()
		clk.Add(time.Second)
		h.typeText(key)
	}
	h.typeText("/sessions")
	h.key(tea.KeyEnter, false)
	h.waitFor("the picker", func(m Model) bool { return len(m.dialogs) == 1 })
	h.waitView("ctrl+d delete")

	h.key(tea.KeyCtrlD, false) // the current session is selected first
	h.waitView("the current session cannot be deleted")
	if len(h.m.dialogs) != 1 {
		t.Fatalf("deleting the current session asked anyway: %d dialogs", len(h.m.dialogs))
	}

	pick := func() {
		h.t.Helper()
		h.key(tea.KeyPgUp, false)
		for i := 0; i < 3 && !strings.Contains(selectedRow(h.m.View()), "s_gone"); i++ {
			h.key(tea.KeyDown, false)
		}
		if !strings.Contains(selectedRow(h.m.View()), "s_gone") {
			t.Fatalf("cannot select s_gone:\n%s", h.m.View())
		}
	}
	pick()
	h.key(tea.KeyCtrlD, false)
	h.waitView("Delete the session", "s_gone · 0 messages", "(y) Delete it", "(n) Keep it")
	answer("n")
	h.waitFor("the question to close", func(m Model) bool { return len(m.dialogs) == 1 })

	pick()
	h.key(tea.KeyCtrlD, false)
	h.waitView("(y) Delete it")
	answer("y")
	h.waitView("deleted session s_gone")
	h.waitFor("the picker without it", func(m Model) bool {
		return len(m.dialogs) == 1 && !strings.Contains(m.dialogs[0].View(), "s_gone") && strings.Contains(m.dialogs[0].View(), "s_keep")
	})
	list, err := store.ListSessions(context.Background(), persistence.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range list {
		if s.ID == "s_gone" {
			t.Fatalf("s_gone is still saved: %+v", list)
		}
	}
}

// selectedRow is the picker's highlighted row in view.
func selectedRow(view string) string {
	for _, l := range strings.Split(view, "\n") {
		if strings.Contains(l, "› ") {
			return l
		}
	}
	return ""
}
