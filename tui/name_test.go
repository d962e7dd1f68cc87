package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// TestNameCommand: /name NAME names the current session and says so; a bare
// /name asks for the name in the editor; the picker lists a named session
// by its name.
func TestNameCommand(t *testing.T) {
	fake := &fakeSessions{list: []SessionSummary{
		{ID: "s_a", Title: "fix the flaky test", Name: "flaky CI", Updated: epoch.Add(-time.Minute), Messages: 2},
	}}
	h := newHarness(t, newRuntime(t, nil), 80, 24, func(o *Options) { o.Sessions = fake })
	h.typeText("/name")
	h.key(tea.KeyEnter, false)
	h.waitFor("the editor asking for the name", func(m Model) bool {
		return m.input.Value() == "/name " && strings.Contains(m.status.View(), "type the session's name")
	})
	h.typeText("the parser rewrite")
	h.key(tea.KeyEnter, false)
	h.waitView("session named: the parser rewrite")
	fake.mu.Lock()
	renamed := strings.Join(fake.renamed, ",")
	fake.mu.Unlock()
	if renamed != "=the parser rewrite" {
		t.Fatalf("renamed %q, want the current session named once", renamed)
	}
	h.typeText("/sessions")
	h.key(tea.KeyEnter, false)
	h.waitFor("the picker", func(m Model) bool { return len(m.dialogs) == 1 })
	if v := h.m.View(); !strings.Contains(v, "flaky CI") || strings.Contains(v, "fix the flaky test") {
		t.Fatalf("the picker does not list the session by its name:\n%s", v)
	}
}
