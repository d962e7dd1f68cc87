package tui

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/tui/msgs"
)

// fakeSessions is a SessionBrowser that records what it was asked. A
// switch that succeeds has announce start a new session, so that the host
// announces a session as a real switch does.
type fakeSessions struct {
	mu       sync.Mutex
	list     []SessionSummary
	switched []string
	fail     error
	announce func() error
}

func (f *fakeSessions) ListSessions(context.Context) ([]SessionSummary, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.list, f.fail
}

func (f *fakeSessions) SwitchSession(_ context.Context, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.switched = append(f.switched, id)
	if f.fail == nil && f.announce != nil {
		return f.announce()
	}
	return f.fail
}

func (f *fakeSessions) calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.switched...)
}

func TestSessionPicker(t *testing.T) {
	fake := &fakeSessions{list: []SessionSummary{
		{ID: "s_new", Title: "fix the flaky test", Updated: epoch.Add(-5 * time.Minute), Messages: 12},
		{ID: "s_old", Title: "", Updated: epoch.Add(-50 * time.Hour), Messages: 1},
		{ID: "s_busy", Title: "elsewhere", Updated: epoch.Add(-time.Minute), Messages: 3, OpenElsewhere: "pid 4242 on box"},
		{ID: "s_kid", Title: "count", Updated: epoch.Add(-time.Minute), Messages: 2, ParentID: "s_new", Running: true},
	}}
	rt := newRuntime(t, nil)
	fake.announce = rt.NewSession
	h := newHarness(t, rt, 80, 24, func(o *Options) { o.Sessions = fake })
	h.typeText("/sessions")
	h.key(tea.KeyEnter, false)
	h.waitFor("the picker", func(m Model) bool { return len(m.dialogs) == 1 })
	v := h.m.View()
	// Titles repeat and may be empty: each row also shows its session's id.
	for _, want := range []string{"Resume a session", "fix the flaky test", "s_new · 5m ago · 12 messages", "(untitled)", "s_old · 2d ago · 1 message",
		"s_busy · 1m ago · 3 messages · open in pid 4242 on box", "s_kid · 1m ago · 2 messages · sub-agent of s_new · running"} {
		if !strings.Contains(v, want) {
			t.Errorf("the picker lacks %q:\n%s", want, v)
		}
	}
	h.key(tea.KeyDown, false)
	h.key(tea.KeyEnter, false)
	h.waitView("resumed session s_old") // untitled: named by its id
	if got := fake.calls(); len(got) != 1 || got[0] != "s_old" {
		t.Fatalf("switched to %v, want [s_old]", got)
	}
	h.typeText("/sessions")
	h.key(tea.KeyEnter, false)
	h.waitFor("the picker", func(m Model) bool { return len(m.dialogs) == 1 })
	h.key(tea.KeyEnter, false)
	h.waitView("resumed: fix the flaky test")
}

func TestSessionsUnavailable(t *testing.T) {
	h := newHarness(t, newRuntime(t, nil), 80, 24)
	h.typeText("/sessions")
	h.key(tea.KeyEnter, false)
	h.waitFor("the hint", func(m Model) bool {
		return strings.Contains(m.status.View(), "saved sessions are not available")
	})
	if len(h.m.dialogs) != 0 {
		t.Fatal("a picker opened without a session browser")
	}
}

func TestSessionSwitchFailureKeepsInput(t *testing.T) {
	fake := &fakeSessions{list: []SessionSummary{{ID: "s_x", Title: "x", Updated: epoch}}}
	h := newHarness(t, newRuntime(t, nil), 80, 24, func(o *Options) { o.Sessions = fake })
	fake.fail = errors.New("database is locked")
	h.send(msgs.ResumeSessionMsg{ID: "s_x"})
	h.waitFor("the error", func(m Model) bool { return strings.Contains(m.status.View(), "database is locked") })
}

func TestNewSessionKeepsTheEditor(t *testing.T) {
	h := newHarness(t, newRuntime(t, nil), 80, 24)
	h.typeText("/new")
	h.key(tea.KeyEnter, false)
	h.waitView("new session")
}
