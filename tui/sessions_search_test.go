package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// TestSessionPickerSearches: typing into the session picker searches (q is
// typed, not a close), the hits show their matching text, Tab searches
// every workspace, clearing the query lists the sessions again, and Enter
// resumes the hit.
func TestSessionPickerSearches(t *testing.T) {
	fake := &fakeSessions{list: []SessionSummary{
		{ID: "s_a", Title: "fix the flaky test", Updated: epoch.Add(-time.Minute), Messages: 2},
		{ID: "s_b", Title: "quarterly report", Updated: epoch.Add(-2 * time.Minute), Messages: 4},
	}}
	rt := newStoredRuntime(t, "s_a", "s_b")
	fake.switchTo = rt.SwitchSession
	h := newHarness(t, rt, 100, 24, func(o *Options) { o.Sessions = fake })
	h.typeText("/sessions")
	h.key(tea.KeyEnter, false)
	h.waitFor("the picker", func(m Model) bool { return len(m.dialogs) == 1 })
	h.waitView("type to search · this workspace · tab: scope")
	h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("qu")}) // a burst, as tmux delivers fast typing
	h.typeText("ar")
	h.waitView("quarterly report — [quar]terly report")
	if v := h.m.View(); strings.Contains(v, "fix the flaky test") {
		t.Fatalf("a session that does not match is listed:\n%s", v)
	}
	h.key(tea.KeyTab, false)
	h.waitView("all workspaces")
	h.waitView("s_b · 2m ago · /w")
	fake.mu.Lock()
	searched := strings.Join(fake.searched, ",")
	fake.mu.Unlock()
	if !strings.HasSuffix(searched, "quar false,quar true") {
		t.Fatalf("searches %q, want the query in this workspace, then everywhere", searched)
	}
	for range 4 {
		h.key(tea.KeyBackspace, false)
	}
	h.waitView("fix the flaky test")
	h.typeText("flaky")
	h.waitView("[flaky]")
	h.key(tea.KeyEnter, false)
	h.waitView("resumed: fix the flaky test")
	if got := fake.calls(); len(got) != 1 || got[0] != "s_a" {
		t.Fatalf("switched to %v, want [s_a]", got)
	}
}
