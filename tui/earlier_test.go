package tui

import (
	"context"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/persistence"
	"github.com/steer-tui/steer/persistence/persisttest/scale"
	"github.com/steer-tui/steer/tui/msgs"
)

// TestCompactedSessionShowsItsWholeHistory: a session compacted twice opens
// with what its model sees, and the history above its last compaction
// follows; scrolled to the top, the screen shows the first prompt.
func TestCompactedSessionShowsItsWholeHistory(t *testing.T) {
	ctx := context.Background()
	store, err := persistence.Open(t.TempDir(), persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := scale.Session{ID: "s_long", Workspace: t.TempDir(), Messages: 60, Topic: "lexer", CompactEvery: 20, Start: epoch}
	if err := scale.Import(ctx, store, s); err != nil {
		t.Fatal(err)
	}
	rt, err := runner.New(ctx, runner.Options{
		Providers: []runner.Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: agenttest.NewScript().Stream}},
		Store:     store, Workspace: s.Workspace, Session: s.ID, Now: agenttest.Clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	if rt.State().EarlierSaved == "" {
		t.Fatal("the session opened with its whole history: nothing to read after")
	}
	host := runner.NewHost(rt)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = host.Close(ctx)
		_ = store.Close()
	})
	h := newHarness(t, host, 100, 30)
	h.waitFor("the saved history", func(m Model) bool { return m.settled() && m.latest[topicEarlier] != 0 })
	h.send(msgs.ScrollMsg{Lines: -1_000_000})
	h.waitView("Turn 0: the lexer tests fail")
}
