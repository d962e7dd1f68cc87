package runner

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/persistence"
)

// answered returns a runtime on store that has run one prompt, and its
// session's id.
func answered(t *testing.T, store *persistence.Store) (*Runtime, string) {
	t.Helper()
	rt := newRuntime(t, store, agenttest.NewScript(agenttest.Reply().Text("ok").Stop(agent.StopReasonStop)), Options{})
	if err := rt.Prompt(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	return rt, rt.SessionID()
}

// TestASessionHasOneWriter: two stores on one state directory stand for
// two steer processes. A session one of them works in cannot be opened by
// the other, by id, by --continue or by a switch; once released it can.
func TestASessionHasOneWriter(t *testing.T) {
	dir := t.TempDir()
	mine, theirs := openStore(t, dir), openStore(t, dir)
	defer mine.Close()
	defer theirs.Close()
	rt, id := answered(t, mine)

	var owned *persistence.OwnedError
	_, err := New(context.Background(), Options{Session: id, Store: theirs, Workspace: "/ws", Now: agenttest.Clock,
		Providers: []Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: agenttest.NewScript().Stream}}})
	if !errors.As(err, &owned) {
		t.Fatalf("opening a session another process owns: %v, want an OwnedError", err)
	}

	other := newRuntime(t, theirs, agenttest.NewScript(), Options{Continue: true})
	if other.SessionID() == id {
		t.Fatal("--continue picked the session another process owns")
	}
	if err := other.SwitchSession(context.Background(), id); !errors.As(err, &owned) {
		t.Fatalf("switching to it: %v, want an OwnedError", err)
	}
	list, err := other.ListSessions(context.Background())
	if err != nil || len(list) != 1 || list[0].OpenElsewhere == "" {
		t.Fatalf("listing = %+v, %v; want the session marked open elsewhere", list, err)
	}

	if err := rt.NewSession(context.Background()); err != nil { // the first process leaves it
		t.Fatal(err)
	}
	if err := other.SwitchSession(context.Background(), id); err != nil {
		t.Fatalf("switching after it was left: %v", err)
	}
	if err := rt.SwitchSession(context.Background(), id); !errors.As(err, &owned) {
		t.Fatalf("the first process taking it back: %v, want an OwnedError", err)
	}
}

// TestAnInputWaitsForANewSession: an input typed while /new is switching
// (here: held up flushing the last run's saves) lands in the new session,
// not between the reset and the switch.
func TestAnInputWaitsForANewSession(t *testing.T) {
	store := openStore(t, t.TempDir())
	defer store.Close()
	rt, old := answered(t, store)
	blocked, release := make(chan struct{}), make(chan struct{})
	rt.writes.add(saveJob{
		write:  func(context.Context) error { close(blocked); <-release; return nil },
		report: func(error) {},
	})
	<-blocked
	switched := make(chan error, 1)
	go func() { switched <- rt.NewSession(context.Background()) }()
	// NewSession holds the swap while it flushes the last run's saves: the
	// input is typed then.
	deadline := time.Now().Add(10 * time.Second)
	for rt.swap.TryRLock() {
		rt.swap.RUnlock()
		if time.Now().After(deadline) {
			t.Fatal("NewSession never kept inputs out while it switched")
		}
		runtime.Gosched()
	}
	prompted := make(chan error, 1)
	go func() { prompted <- rt.Prompt(context.Background(), "typed during /new") }()
	close(release)
	if err := <-switched; err != nil {
		t.Fatal(err)
	}
	if err := <-prompted; err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	if rt.SessionID() == old {
		t.Fatal("still in the old session")
	}
	msgs, err := store.LoadTranscript(context.Background(), rt.SessionID())
	if err != nil || len(msgs) == 0 || msgs[0].TextContent() != "typed during /new" {
		t.Fatalf("new session transcript %v (%v), want the input first", msgs, err)
	}
	if pending, _ := store.PendingInputs(context.Background(), old); len(pending) != 0 {
		t.Fatalf("the old session kept %d pending inputs", len(pending))
	}
}
