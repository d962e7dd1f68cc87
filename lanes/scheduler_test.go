package lanes

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

func TestGlobalCapLetsTheThirdSessionWait(t *testing.T) {
	h := newHarness(t, Options{MaxConcurrent: 2})
	a := h.enter(req("a", "s1"))
	b := h.enter(req("b", "s2"))
	c := h.enterAsync(context.Background(), req("c", "s3"))
	snap := h.waitUntil("c waiting for the global lane", waiting(GlobalLane, "c"))
	h.stillWaiting(c, "c")
	assertLane(t, snap, GlobalLane, []string{"a", "b"}, []string{"c"})
	assertLane(t, snap, "session:s3", []string{"c"}, []string{})

	a.Leave()
	ct := h.admitted(c, "c")
	assertLane(t, h.s.Snapshot(), GlobalLane, []string{"b", "c"}, []string{})
	b.Leave()
	ct.Leave()
	assertLane(t, h.s.Snapshot(), GlobalLane, []string{}, []string{})
}

func TestPrioritiesThenFIFO(t *testing.T) {
	cases := []struct {
		name     string
		triggers []string // in the order they queue
		want     []int    // the order they start, by index into triggers
	}{
		{"FIFO within one priority", []string{"user", "user", "user"}, []int{0, 1, 2}},
		{"foreground before normal before background", []string{"cron", "rpc", "user"}, []int{2, 1, 0}},
		{"mixed", []string{"heartbeat", "follow_up", "manual", "memory", "user", "rpc"}, []int{2, 4, 1, 5, 0, 3}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{MaxConcurrent: 1})
			blocker := h.enter(req("blocker", "s0"))
			chans := make([]<-chan entered, len(tc.triggers))
			var queued []string
			for i, trig := range tc.triggers {
				id := fmt.Sprint(i)
				// One session each, so that only the global lane orders them.
				chans[i] = h.enterAsync(context.Background(), Request{ID: id, Session: "q" + id, Trigger: trig})
				queued = append(queued, id)
				h.waitUntil("run "+id+" queued", func(s Snapshot) bool { return len(laneOf(s, GlobalLane).Waiting) == len(queued) })
			}
			prev := blocker
			for _, i := range tc.want {
				prev.Leave()
				prev = h.admitted(chans[i], fmt.Sprint(i))
			}
			prev.Leave()
		})
	}
}

func TestOneSessionRunsOneAtATime(t *testing.T) {
	h := newHarness(t, Options{})
	first := h.enter(req("first", "s1"))
	second := h.enterAsync(context.Background(), req("second", "s1"))
	snap := h.waitUntil("second waiting in its session lane", waiting("session:s1", "second"))
	// It waits for its session, not for a global slot, of which there are
	// plenty.
	assertLane(t, snap, GlobalLane, []string{"first"}, []string{})
	assertLane(t, snap, "session:s1", []string{"first"}, []string{"second"})
	h.stillWaiting(second, "second")

	first.Leave()
	h.admitted(second, "second").Leave()
}

// Many runs of a few sessions, entering at once: no session ever has two
// inside, and the global lane never more than its cap.
func TestNoSessionEverRunsTwoUnderLoad(t *testing.T) {
	const (
		sessions = 3
		perSess  = 20
		maxConc  = 2
	)
	h := newHarness(t, Options{MaxConcurrent: maxConc})
	var inside [sessions]atomic.Int32
	var total atomic.Int32
	errs := make(chan error, sessions*perSess)
	var wg sync.WaitGroup
	for s := range sessions {
		for i := range perSess {
			wg.Go(func() {
				task, err := h.s.Enter(context.Background(), req(fmt.Sprintf("r%d-%d", s, i), fmt.Sprint("s", s)))
				if err != nil {
					errs <- err
					return
				}
				if n := inside[s].Add(1); n != 1 {
					errs <- fmt.Errorf("session s%d has %d runs inside", s, n)
				}
				if n := total.Add(1); n > maxConc {
					errs <- fmt.Errorf("%d runs inside, cap %d", n, maxConc)
				}
				total.Add(-1)
				inside[s].Add(-1)
				task.Leave()
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if snap := h.s.Snapshot(); len(snap.Lanes) != 2 {
		t.Errorf("lanes left busy: %+v", snap.Lanes)
	}
}

func TestSubAgentsHaveTheirOwnLane(t *testing.T) {
	h := newHarness(t, Options{MaxConcurrent: 1, MaxSubAgents: 2})
	parent := h.enter(req("parent", "p"))
	sub := func(id string) Request { return Request{ID: id, Session: id, Trigger: "subagent", SubAgent: true} }
	// The global lane is full; sub-agents do not need it.
	c1 := h.enter(sub("c1"))
	c2 := h.enter(sub("c2"))
	c3 := h.enterAsync(context.Background(), sub("c3"))
	snap := h.waitUntil("c3 waiting for the sub-agent lane", waiting(SubAgentLane, "c3"))
	assertLane(t, snap, GlobalLane, []string{"parent"}, []string{})
	assertLane(t, snap, SubAgentLane, []string{"c1", "c2"}, []string{"c3"})
	if l := laneOf(snap, SubAgentLane); l.Cap != 2 || l.Running[0].SubAgent != true {
		t.Errorf("sub-agent lane %+v", l)
	}
	c1.Leave()
	h.admitted(c3, "c3").Leave()
	c2.Leave()
	parent.Leave()
}

func TestDefaultCaps(t *testing.T) {
	snap := New(Options{}).Snapshot()
	if g, s := laneOf(snap, GlobalLane).Cap, laneOf(snap, SubAgentLane).Cap; g != DefaultMaxConcurrent || s != DefaultMaxSubAgents {
		t.Fatalf("caps %d and %d, want %d and %d", g, s, DefaultMaxConcurrent, DefaultMaxSubAgents)
	}
	if DefaultMaxConcurrent != 4 || DefaultMaxSubAgents != 8 {
		t.Fatalf("defaults %d and %d, want 4 and 8 (seed)", DefaultMaxConcurrent, DefaultMaxSubAgents)
	}
}

// A waiter whose context ends leaves every queue, wherever it waits, and
// takes nothing with it.
func TestCancelledWaiterLeavesTheQueue(t *testing.T) {
	cases := []struct {
		name string
		// block makes "w" of session s1 wait; it returns what to undo.
		block func(h *harness) (undo func())
		at    func(Snapshot) bool
	}{
		{"in its session lane",
			func(h *harness) func() { return h.enter(req("other", "s1")).Leave },
			waiting("session:s1", "w")},
		{"in the global lane",
			func(h *harness) func() { return h.enter(req("other", "s2")).Leave },
			waiting(GlobalLane, "w")},
		{"for maintenance",
			func(h *harness) func() { return h.s.Maintain("s1") },
			func(s Snapshot) bool {
				return len(laneOf(s, "session:s1").Running) == 1 && len(laneOf(s, GlobalLane).Waiting) == 0
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{MaxConcurrent: 1})
			undo := tc.block(h)
			ctx, cancel := context.WithCancel(context.Background())
			w := h.enterAsync(ctx, req("w", "s1"))
			h.waitUntil("w waiting", tc.at)
			cancel()
			if e := within(t, w, "the cancelled entry"); !errors.Is(e.err, context.Canceled) || e.task != nil {
				t.Fatalf("Enter = %v, %v; want context.Canceled", e.task, e.err)
			}
			undo()
			snap := h.s.Snapshot()
			for _, l := range snap.Lanes {
				if len(l.Running)+len(l.Waiting) != 0 {
					t.Errorf("lane %s still holds %+v %+v", l.Name, l.Running, l.Waiting)
				}
			}
			// Both lanes are free for the next run of the session.
			h.enter(req("next", "s1")).Leave()
		})
	}
}

func TestEnterRefusesDoneContextAndEmptySession(t *testing.T) {
	h := newHarness(t, Options{})
	ctx, cancel := context.WithCancelCause(context.Background())
	cause := errors.New("shutting down")
	cancel(cause)
	if _, err := h.s.Enter(ctx, req("r", "s1")); !errors.Is(err, cause) {
		t.Errorf("Enter with a done context = %v, want its cause", err)
	}
	if _, err := h.s.Enter(context.Background(), Request{ID: "r"}); err == nil {
		t.Error("Enter without a session succeeded")
	}
}

// Waiting for one's own session's maintenance holds no global slot, so
// another session starts meanwhile (the reason for session-then-global).
func TestMaintenanceWaitLetsOtherSessionsStart(t *testing.T) {
	h := newHarness(t, Options{MaxConcurrent: 1})
	done := h.s.Maintain("s1")
	again := h.s.Maintain("s1") // two pieces of maintenance at once
	a := h.enterAsync(context.Background(), req("a", "s1"))
	h.waitUntil("a inside its session lane", func(s Snapshot) bool { return len(laneOf(s, "session:s1").Running) == 1 })
	b := h.enter(req("b", "s2")) // takes the one global slot
	assertLane(t, h.s.Snapshot(), GlobalLane, []string{"b"}, []string{})

	done()
	done() // counts once
	h.stillWaiting(a, "a")
	again()
	h.waitUntil("a waiting for the global lane", waiting(GlobalLane, "a"))
	b.Leave()
	h.admitted(a, "a").Leave()
}

func TestMaintenanceDoesNotStopARunAlreadyIn(t *testing.T) {
	h := newHarness(t, Options{})
	a := h.enter(req("a", "s1"))
	done := h.s.Maintain("s1")
	if err := a.Context().Err(); err != nil {
		t.Fatalf("running task's context ended: %v", err)
	}
	b := h.enterAsync(context.Background(), req("b", "s1"))
	a.Leave()
	h.waitUntil("b through its session lane", func(s Snapshot) bool {
		return slices.Equal(idsOf(laneOf(s, "session:s1").Running), []string{"b"})
	})
	assertLane(t, h.s.Snapshot(), GlobalLane, []string{}, []string{})
	done()
	h.admitted(b, "b").Leave()
}
