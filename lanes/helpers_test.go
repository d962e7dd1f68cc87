package lanes

import (
	"context"
	"slices"
	"testing"
	"time"
)

// guard bounds every wait of a test for something that must happen; it
// only turns a bug that hangs into a failure, nothing waits for it to pass.
const guard = 10 * time.Second

// harness is a scheduler on a fake clock.
type harness struct {
	t     *testing.T
	clock *fakeClock
	s     *Scheduler
}

func newHarness(t *testing.T, opts Options) *harness {
	clock := newFakeClock()
	opts.Clock = clock
	return &harness{t: t, clock: clock, s: New(opts)}
}

// entered is the outcome of an Enter.
type entered struct {
	task *Task
	err  error
}

// enterAsync calls Enter on its own goroutine; its outcome arrives on the
// channel returned.
func (h *harness) enterAsync(ctx context.Context, req Request) <-chan entered {
	out := make(chan entered, 1)
	go func() {
		task, err := h.s.Enter(ctx, req)
		out <- entered{task, err}
	}()
	return out
}

// enter enters a request that must be admitted at once.
func (h *harness) enter(req Request) *Task {
	h.t.Helper()
	return h.admitted(h.enterAsync(context.Background(), req), req.ID)
}

// admitted waits for an Enter's outcome, which must be admission.
func (h *harness) admitted(ch <-chan entered, id string) *Task {
	h.t.Helper()
	select {
	case e := <-ch:
		if e.err != nil {
			h.t.Fatalf("enter %s: %v", id, e.err)
		}
		return e.task
	case <-time.After(guard):
		h.t.Fatalf("enter %s: still waiting", id)
		return nil
	}
}

// stillWaiting fails when an Enter has returned.
func (h *harness) stillWaiting(ch <-chan entered, id string) {
	h.t.Helper()
	select {
	case e := <-ch:
		h.t.Fatalf("enter %s returned (%v) while it should wait", id, e.err)
	default:
	}
}

// waitUntil waits on the scheduler's change signals until cond holds for
// a snapshot, and returns that snapshot.
func (h *harness) waitUntil(what string, cond func(Snapshot) bool) Snapshot {
	h.t.Helper()
	deadline := time.After(guard)
	for {
		if snap := h.s.Snapshot(); cond(snap) {
			return snap
		}
		select {
		case <-h.s.Changes():
		case <-deadline:
			h.t.Fatalf("lanes never got to %s: %+v", what, h.s.Snapshot())
		}
	}
}

// waiting is a condition: the lane named has exactly ids waiting, in order.
func waiting(name string, ids ...string) func(Snapshot) bool {
	return func(s Snapshot) bool { return slices.Equal(idsOf(laneOf(s, name).Waiting), ids) }
}

// laneOf is the lane named in s; a lane that is not there is empty.
func laneOf(s Snapshot, name string) Lane {
	for _, l := range s.Lanes {
		if l.Name == name {
			return l
		}
	}
	return Lane{Name: name, Running: []Entry{}, Waiting: []Entry{}}
}

func idsOf(es []Entry) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.ID)
	}
	return out
}

// assertLane fails unless the lane named runs and waits exactly those ids.
func assertLane(t *testing.T, s Snapshot, name string, running, waiting []string) {
	t.Helper()
	l := laneOf(s, name)
	if got := idsOf(l.Running); !slices.Equal(got, running) {
		t.Errorf("%s running %v, want %v", name, got, running)
	}
	if got := idsOf(l.Waiting); !slices.Equal(got, waiting) {
		t.Errorf("%s waiting %v, want %v", name, got, waiting)
	}
}

// req is a user run of session with the given id.
func req(id, session string) Request { return Request{ID: id, Session: session, Trigger: "user"} }

// within receives from ch, failing the test when nothing comes.
func within[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(guard):
		t.Fatalf("%s: nothing came", what)
		var zero T
		return zero
	}
}
