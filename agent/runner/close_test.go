package runner

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/persistence"
	"github.com/steer-tui/steer/persistence/persisttest"
)

// giveUpBound is how long a quit may take once its wait is over: far below
// the ~25 s one write spends on a locked database before it reports busy,
// so that no test here passes by waiting the lock out.
const giveUpBound = 3 * time.Second

// returnsWithin runs f and fails the test when it has not returned after
// giveUpBound.
func returnsWithin[T any](t *testing.T, what string, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v
	case <-time.After(giveUpBound):
		t.Fatalf("%s did not return within %v of its wait ending", what, giveUpBound)
		var zero T
		return zero
	}
}

// stuckSaves is a runtime whose second run has ended while another
// connection holds the database's write lock: the run's saves, the lanes'
// snapshot and the session's release all wait on it.
type stuckSaves struct {
	rt     *Runtime
	store  *persistence.Store
	log    *agenttest.Buffer
	unlock func()
}

func newStuckSaves(t *testing.T, opts Options) stuckSaves {
	t.Helper()
	store := openStore(t, t.TempDir())
	t.Cleanup(func() { store.Close() })
	release := make(chan struct{})
	log := &agenttest.Buffer{}
	opts.Logger = slog.New(slog.NewJSONHandler(log, nil))
	rt := newRuntime(t, store, agenttest.NewScript(
		agenttest.Reply().Text("one").Stop(agent.StopReasonStop),
		agenttest.Reply().Wait(release).Text("two").Stop(agent.StopReasonStop),
	), opts)
	if err := rt.Prompt(context.Background(), "first"); err != nil { // the session, its claim, the lanes' publisher
		t.Fatal(err)
	}
	waitIdle(t, rt)
	if err := rt.Prompt(context.Background(), "second"); err != nil { // saved before the lock
		t.Fatal(err)
	}
	unlock := persisttest.HoldWriteLock(t, store.Path())
	close(release)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := rt.agent.WaitForIdle(ctx); err != nil { // the run, not its saves
		t.Fatal(err)
	}
	return stuckSaves{rt: rt, store: store, log: log, unlock: unlock}
}

// checkGivenUp checks that what was given up on is said to have failed and
// that the session is free for another process once the database is.
func (s stuckSaves) checkGivenUp(t *testing.T) {
	t.Helper()
	if got := s.rt.State().PersistError; got == "" {
		t.Error("PersistError is empty: the saves given up on pass for saved")
	}
	for _, want := range []string{"saving the session (message_end) failed", "releasing a session failed", errGivenUp.Error()} {
		if !strings.Contains(s.log.String(), want) {
			t.Errorf("the log does not say %q:\n%s", want, s.log.String())
		}
	}
	s.unlock()
	other := openStore(t, s.store.Dir())
	defer other.Close()
	ctx := context.Background()
	claim, err := other.ClaimSession(ctx, s.rt.SessionID())
	if err != nil {
		t.Fatalf("the session is still held: %v", err)
	}
	defer claim.Release(ctx)
	msgs, err := other.LoadTranscript(ctx, s.rt.SessionID())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if m.TextContent() == "two" {
			t.Error("the answer given up on was saved after all")
		}
	}
}

// TestCloseGivesUpOnALockedDatabase: while another process keeps the
// database locked, Close gives the pending writes until its context ends,
// then gives up on them at once: it returns the context's error, the
// failures are logged and in PersistError, and the session's OS lock goes.
func TestCloseGivesUpOnALockedDatabase(t *testing.T) {
	tests := []struct {
		name string
		ctx  func() (context.Context, context.CancelFunc)
	}{
		{"no time left", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx, cancel
		}},
		{"a short wait", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 50*time.Millisecond)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStuckSaves(t, Options{})
			ctx, cancel := tt.ctx()
			defer cancel()
			err := returnsWithin(t, "Close", func() error { return s.rt.Close(ctx) })
			if !errors.Is(err, ctx.Err()) || err == nil {
				t.Errorf("Close = %v, want the context's error", err)
			}
			s.checkGivenUp(t)
		})
	}
}

// TestQuitGivesTheSavesQuitWait: once the quit signal has come, the writes
// already handed over get quitWait, then are given up on, without Close:
// a front end waiting for them is not held up by a locked database.
func TestQuitGivesTheSavesQuitWait(t *testing.T) {
	quit, signal := context.WithCancel(context.Background())
	defer signal()
	s := newStuckSaves(t, Options{Quit: quit})
	s.rt.writes.quitWait = 0
	signal()
	err := returnsWithin(t, "WaitForIdle", func() error { return s.rt.WaitForIdle(context.Background()) })
	if err != nil {
		t.Fatalf("WaitForIdle = %v", err)
	}
	err = s.rt.Close(context.Background())
	if accounts := NotSaved(err); len(accounts) != 1 ||
		!strings.Contains(err.Error(), " message") || !strings.Contains(err.Error(), "("+errGivenUp.Error()+")") {
		t.Fatalf("Close after the writes were given up on = %v, want what was not saved and why", err)
	}
	s.checkGivenUp(t)
}

// TestQuitRefusesAnInputStillBeingSaved: an input whose save waits on a
// locked database when the quit signal comes is refused at once (it was
// never acknowledged), and nothing of it is stored.
func TestQuitRefusesAnInputStillBeingSaved(t *testing.T) {
	store := openStore(t, t.TempDir())
	t.Cleanup(func() { store.Close() })
	quit, signal := context.WithCancel(context.Background())
	defer signal()
	rt := newRuntime(t, store, agenttest.NewScript(agenttest.Reply().Text("never").Stop(agent.StopReasonStop)), Options{Quit: quit})
	unlock := persisttest.HoldWriteLock(t, store.Path())
	refused := make(chan error, 1)
	go func() { refused <- rt.Prompt(context.Background(), "typed as steer quit") }()
	signal()
	err := returnsWithin(t, "Prompt", func() error { return <-refused })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Prompt = %v, want it refused with the quit", err)
	}
	unlock()
	sessions, err := store.ListSessions(context.Background(), persistence.ListOptions{})
	if err != nil || len(sessions) != 0 {
		t.Fatalf("stored %v (%v), want nothing", sessions, err)
	}
}
