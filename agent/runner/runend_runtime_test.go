package runner

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/lanes"
	"github.com/steer-tui/steer/persistence"
)

// endWatch records the events after each agent_end and signals attempts.
type endWatch struct {
	mu       sync.Mutex
	afterEnd []agent.Event // what came after the last agent_end
	ended    bool
	attempts chan struct{}
}

func watchEnds(rt *Runtime) *endWatch {
	w := &endWatch{attempts: make(chan struct{}, 8)}
	rt.Subscribe(func(ev agent.Event) {
		w.mu.Lock()
		defer w.mu.Unlock()
		switch e := ev.(type) {
		case agent.AgentEnd:
			w.afterEnd, w.ended = nil, true
			return
		case agent.Annotation:
			if e.Kind == AnnotationAttemptStart {
				w.attempts <- struct{}{}
			}
		}
		if w.ended {
			w.afterEnd = append(w.afterEnd, ev)
		}
	})
	return w
}

// runEnd is the run_end that came right after agent_end, and nothing else.
func (w *endWatch) runEnd(t *testing.T) RunEnd {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.afterEnd) != 1 {
		t.Fatalf("after agent_end came %d events, want one run_end: %+v", len(w.afterEnd), w.afterEnd)
	}
	a, ok := w.afterEnd[0].(agent.Annotation)
	end, isEnd := a.Data.(RunEnd)
	if !ok || a.Kind != AnnotationRunEnd || !isEnd {
		t.Fatalf("after agent_end came %+v, want a run_end", w.afterEnd[0])
	}
	return end
}

// hanging answers nothing until its request is cancelled.
func hanging(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
	return scripted(func(ctx context.Context, w *agent.StreamWriter, _ agent.Model, _ agent.StreamOptions) {
		<-ctx.Done()
		w.Fail(&agent.ProviderError{Message: "the request was cancelled"})
	})(ctx, m, llm, opts)
}

// TestRunEndFollowsAgentEnd: every run's agent_end is followed by its
// run_end, whose runId and outcome are the run record's, a failure with
// its reason.
func TestRunEndFollowsAgentEnd(t *testing.T) {
	store := storeFor(t, t.TempDir())
	script := agenttest.NewScript(
		agenttest.Reply().Text("hello").Stop(agent.StopReasonStop),
		agenttest.Reply().Fail(&agent.ProviderError{Status: 401, Message: "invalid api key"}),
	)
	rt := newRuntime(t, store, script, Options{Failover: noCooldownWait})
	w := watchEnds(rt)
	for _, want := range []RunEnd{{Outcome: OutcomeCompleted}, {Outcome: OutcomeFailed, Reason: "auth"}} {
		if err := rt.Prompt(context.Background(), "hi"); err != nil {
			t.Fatal(err)
		}
		waitIdle(t, rt)
		end := w.runEnd(t)
		if end.Outcome != want.Outcome || end.Reason != want.Reason || end.RunID == "" {
			t.Errorf("run_end = %+v, want %+v with the run's id", end, want)
		}
		if err := rt.writes.flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		rec, err := store.Run(context.Background(), end.RunID)
		if err != nil || rec.Outcome != end.Outcome || rec.Reason != end.Reason {
			t.Errorf("record of %s = %+v, %v; want outcome %q reason %q", end.RunID, rec, err, end.Outcome, end.Reason)
		}
	}
}

// TestTimedOutRunsAreNotAborted: a run its time limit stops — at the
// provider, or while it waits for the global lane — is a timeout; the
// user's abort is a cancel. None is recorded as "aborted".
func TestTimedOutRunsAreNotAborted(t *testing.T) {
	t.Run("at the provider", func(t *testing.T) {
		store := storeFor(t, t.TempDir())
		rt := hangingRuntime(t, store, nil)
		ft := &fakeTimers{now: time.Unix(0, 0)}
		rt.clock.after, rt.clock.now = ft.after, ft.clock
		w := watchEnds(rt)
		if err := rt.Prompt(context.Background(), "hi"); err != nil {
			t.Fatal(err)
		}
		<-w.attempts
		ft.waitArmed()
		ft.advance(time.Hour)
		waitIdle(t, rt)
		checkEnd(t, rt, store, w, OutcomeTimeout)
	})
	t.Run("in the queue", func(t *testing.T) {
		sched := lanes.New(lanes.Options{MaxConcurrent: 1})
		busy := hangingRuntime(t, nil, sched)
		busyWatch := watchEnds(busy)
		if err := busy.Prompt(context.Background(), "hold the lane"); err != nil {
			t.Fatal(err)
		}
		<-busyWatch.attempts
		store := storeFor(t, t.TempDir())
		rt := hangingRuntime(t, store, sched)
		ft := &fakeTimers{now: time.Unix(0, 0)}
		rt.clock.after, rt.clock.now = ft.after, ft.clock
		w := watchEnds(rt)
		if err := rt.Prompt(context.Background(), "wait"); err != nil {
			t.Fatal(err)
		}
		waitSnapshot(t, sched, func(s lanes.Snapshot) bool { _, waiting := global(s); return waiting == 1 })
		ft.waitArmed() // the run's clock is set at agent_start, on the agent's goroutine
		ft.advance(time.Hour)
		waitIdle(t, rt)
		checkEnd(t, rt, store, w, OutcomeTimeout)
	})
	t.Run("the user's abort", func(t *testing.T) {
		store := storeFor(t, t.TempDir())
		rt := hangingRuntime(t, store, nil)
		w := watchEnds(rt)
		if err := rt.Prompt(context.Background(), "hi"); err != nil {
			t.Fatal(err)
		}
		<-w.attempts
		rt.Abort()
		waitIdle(t, rt)
		checkEnd(t, rt, store, w, OutcomeCancelled)
	})
}

// hangingRuntime is a runtime whose provider hangs, with a time limit.
func hangingRuntime(t *testing.T, store *persistence.Store, sched *lanes.Scheduler) *Runtime {
	t.Helper()
	rt, err := New(context.Background(), Options{
		Providers: []Provider{{Name: "p", Models: []agent.Model{primary}, Stream: hanging}},
		Model:     "p/big", Store: store, Workspace: "/ws", Lanes: sched, RunTimeout: time.Minute, Failover: noCooldownWait,
	})
	if err != nil {
		t.Fatal(err)
	}
	stopOnCleanup(t, rt)
	return rt
}

func checkEnd(t *testing.T, rt *Runtime, store *persistence.Store, w *endWatch, want string) {
	t.Helper()
	end := w.runEnd(t)
	if end.Outcome != want {
		t.Errorf("run_end = %+v, want outcome %s", end, want)
	}
	if err := rt.writes.flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if rec, err := store.Run(context.Background(), end.RunID); err != nil || rec.Outcome != want {
		t.Errorf("record = %+v, %v; want outcome %s", rec, err, want)
	}
}
