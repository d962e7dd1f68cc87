package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/persistence"
	"github.com/steer-tui/steer/tui/msgs"
)

// fakeSessions is a SessionBrowser that lists what it is told and records
// the switches asked for. A switch that succeeds is passed on to switchTo
// (a real host's), when set, so that it is announced as a real one is.
type fakeSessions struct {
	mu       sync.Mutex
	list     []SessionSummary
	switched []string
	renamed  []string
	searched []string // "query everywhere?"
	fail     error
	switchTo func(ctx context.Context, id string) error
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
	if f.fail == nil && f.switchTo != nil {
		return f.switchTo(context.Background(), id)
	}
	return f.fail
}

func (f *fakeSessions) RenameSession(_ context.Context, id, name string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.renamed = append(f.renamed, id+"="+name)
	return name, f.fail
}

// DeleteSession takes the session off the list.
func (f *fakeSessions) DeleteSession(_ context.Context, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != nil {
		return f.fail
	}
	for i, s := range f.list {
		if s.ID == id {
			f.list = append(f.list[:i:i], f.list[i+1:]...)
		}
	}
	return nil
}

// SearchSessions finds the listed sessions whose title holds query, the
// matching title as the match.
func (f *fakeSessions) SearchSessions(_ context.Context, query string, everywhere bool) ([]SessionHit, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.searched = append(f.searched, fmt.Sprintf("%s %v", query, everywhere))
	var hits []SessionHit
	for _, s := range f.list {
		if strings.Contains(s.Title, query) {
			hits = append(hits, SessionHit{ID: s.ID, Title: s.Title, Workspace: "/w", Updated: s.Updated,
				Match: strings.ReplaceAll(s.Title, query, "["+query+"]")})
		}
	}
	return hits, f.fail
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
	rt := newStoredRuntime(t, "s_new", "s_old")
	fake.switchTo = rt.SwitchSession
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
	h.waitView("› ● (untitled)") // the session on screen is selected
	h.key(tea.KeyUp, false)
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

// newStoredRuntime is a host on a state directory that holds the empty
// saved sessions ids, answering nothing.
func newStoredRuntime(t *testing.T, ids ...string) *runner.Host {
	h, _ := newStoredHost(t, agenttest.NewScript().Stream, ids...)
	return h
}

// newStoredHost is a host on a state directory that holds the empty saved
// sessions ids, whose model streams with stream; both are closed when the
// test ends.
func newStoredHost(t *testing.T, stream agent.StreamFn, ids ...string) (*runner.Host, *persistence.Store) {
	t.Helper()
	store, err := persistence.Open(t.TempDir(), persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if err := store.CreateSession(context.Background(), persistence.Session{ID: id, Workspace: "/ws", Created: epoch, Updated: epoch}); err != nil {
			t.Fatal(err)
		}
	}
	rt, err := runner.New(context.Background(), runner.Options{
		Providers: []runner.Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: stream}},
		Store:     store, Workspace: "/ws", Now: agenttest.Clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	h := runner.NewHost(rt)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		h.AbortWith(runner.AbortQuit)
		_ = h.WaitForIdle(ctx)
		_ = h.Close(ctx)
		_ = store.Close()
	})
	return h, store
}
