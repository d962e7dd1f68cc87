package lanes

import (
	"context"
	"errors"
	"testing"
)

// A queued entry from inside a lane it needs is refused at once, naming
// the lane; one that needs none of the lanes its context holds is queued
// as usual.
func TestQueuedEntryFromInside(t *testing.T) {
	cases := []struct {
		name     string
		inside   Request // the task whose context enters
		enter    Request
		wantLane string // "" when the entry is admitted
	}{
		{"the same session", req("run", "s1"), req("compact", "s1"), "session:s1"},
		{"another session, the same global lane", req("run", "s1"), req("compact", "s2"), GlobalLane},
		{"a sub-agent from a run", req("run", "s1"), Request{ID: "child", Session: "c1", SubAgent: true}, ""},
		{"a sub-agent from a sub-agent", Request{ID: "child", Session: "c1", SubAgent: true},
			Request{ID: "grandchild", Session: "c2", SubAgent: true}, SubAgentLane},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			in := h.enter(tc.inside)
			defer in.Leave()
			got := h.enterAsync(in.Context(), tc.enter)
			if tc.wantLane == "" {
				h.admitted(got, tc.enter.ID).Leave()
				return
			}
			e := within(t, got, "the refused entry")
			var re *ReentrantError
			if !errors.As(e.err, &re) || !errors.Is(e.err, ErrReentrant) || re.Lane != tc.wantLane || re.Holder != tc.inside.ID {
				t.Fatalf("Enter from inside = %v, %v; want a *ReentrantError for %s", e.task, e.err, tc.wantLane)
			}
			snap := h.s.Snapshot()
			for _, l := range snap.Lanes {
				if len(l.Waiting) != 0 {
					t.Errorf("lane %s has waiters %+v", l.Name, l.Waiting)
				}
			}
		})
	}
}

// Tasks entered from inside others carry every outer mark.
func TestReentryIsFoundThroughNestedTasks(t *testing.T) {
	h := newHarness(t, Options{})
	run := h.enter(req("run", "s1"))
	defer run.Leave()
	child := h.admitted(h.enterAsync(run.Context(), Request{ID: "child", Session: "c1", SubAgent: true}), "child")
	defer child.Leave()
	_, err := h.s.Enter(child.Context(), req("compact", "s1"))
	var re *ReentrantError
	if !errors.As(err, &re) || re.Lane != "session:s1" || re.Holder != "run" {
		t.Fatalf("Enter = %v, want the run's session lane refused", err)
	}
}

// A context that outlives its task holds nothing.
func TestAContextOfALeftTaskEntersAgain(t *testing.T) {
	h := newHarness(t, Options{})
	first := h.enter(req("first", "s1"))
	first.Leave()
	ctx := context.WithoutCancel(first.Context()) // keeps the mark, drops the cancel
	h.admitted(h.enterAsync(ctx, req("second", "s1")), "second").Leave()
}

func TestDirect(t *testing.T) {
	h := newHarness(t, Options{})
	other := New(Options{})
	task := h.enter(req("run", "s1"))
	cases := []struct {
		name    string
		s       *Scheduler
		ctx     context.Context
		session string
		inside  bool
	}{
		{"inside the session's lane", h.s, task.Context(), "s1", true},
		{"from a context derived from the task's", h.s, context.WithoutCancel(task.Context()), "s1", true},
		{"inside another session's lane", h.s, task.Context(), "s2", false},
		{"outside any lane", h.s, context.Background(), "s1", false},
		{"inside another scheduler's lane", other, task.Context(), "s1", false},
	}
	for _, tc := range cases {
		err := tc.s.Direct(tc.ctx, tc.session)
		if inside := err == nil; inside != tc.inside {
			t.Errorf("%s: Direct = %v, want inside %v", tc.name, err, tc.inside)
		}
		if err != nil && !errors.Is(err, ErrNotInLane) {
			t.Errorf("%s: Direct = %v, want ErrNotInLane", tc.name, err)
		}
	}
	task.Leave()
	if err := h.s.Direct(context.WithoutCancel(task.Context()), "s1"); !errors.Is(err, ErrNotInLane) {
		t.Errorf("Direct after Leave = %v, want ErrNotInLane", err)
	}
}

// The in-lane compaction pattern: a run compacts its own session directly
// (no deadlock, no wait); the queued call from the same place is refused
// instead of waiting for itself.
func TestInLaneCompactionNeitherDeadlocksNorHangs(t *testing.T) {
	h := newHarness(t, Options{MaxConcurrent: 1})
	run := h.enter(req("run", "s1"))
	compacted := 0
	compactDirect := func(ctx context.Context) error {
		if err := h.s.Direct(ctx, "s1"); err != nil {
			return err
		}
		compacted++
		return nil
	}
	compactQueued := func(ctx context.Context) error {
		task, err := h.s.Enter(ctx, Request{ID: "compaction", Session: "s1", Trigger: "overflow"})
		if err != nil {
			return err
		}
		defer task.Leave()
		return compactDirect(task.Context())
	}
	done := make(chan error, 2)
	go func() {
		done <- compactDirect(run.Context())
		done <- compactQueued(run.Context())
	}()
	for i, want := range []error{nil, ErrReentrant} {
		if err := within(t, done, "compaction"); !errors.Is(err, want) {
			t.Fatalf("call %d = %v, want %v", i, err, want)
		}
	}
	run.Leave()
	// From outside, the queued call is the right one.
	if err := compactQueued(context.Background()); err != nil || compacted != 2 {
		t.Fatalf("queued compaction from outside = %v (compacted %d times)", err, compacted)
	}
}

// A context that a run made before it entered its lanes counts as inside
// them once the task marks it, and so does every context derived from it:
// a queued entry with one is refused at once, not left waiting for the run
// until the context's deadline; Direct lets it in; after the task left it
// holds nothing.
func TestReentryFromRunContextMarkedByItsTask(t *testing.T) {
	cases := []struct {
		name     string
		enter    Request
		wantLane string
	}{
		{"the same session", req("compact", "s1"), "session:s1"},
		{"another session, the same global lane", req("other", "s2"), GlobalLane},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{MaxConcurrent: 1})
			runCtx, cancel := context.WithTimeout(context.Background(), guard) // the run's, made before it entered
			defer cancel()
			run := h.enter(req("run", "s1"))
			derived, stop := context.WithCancel(run.Mark(runCtx)) // the run's request, say
			defer stop()
			e := within(t, h.enterAsync(derived, tc.enter), "the entry from the run's context")
			var re *ReentrantError
			if !errors.As(e.err, &re) || re.Lane != tc.wantLane || re.Holder != "run" {
				t.Fatalf("Enter from the run's context = %v, %v; want a *ReentrantError for %s", e.task, e.err, tc.wantLane)
			}
			if err := h.s.Direct(derived, "s1"); err != nil {
				t.Errorf("Direct from the run's context = %v", err)
			}
			run.Leave()
			if err := derived.Err(); err != nil {
				t.Errorf("the marked context ended with its task: %v", err)
			}
			h.admitted(h.enterAsync(derived, tc.enter), tc.enter.ID).Leave()
		})
	}
}
