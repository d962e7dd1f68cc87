package lanes

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestTimeoutAddsTheGrace(t *testing.T) {
	cases := []struct {
		run, want time.Duration
	}{
		{0, 0},
		{-time.Second, 0},
		{time.Second, 31 * time.Second},
		{48 * time.Hour, 48*time.Hour + 30*time.Second},
	}
	for _, tc := range cases {
		if got := Timeout(tc.run); got != tc.want {
			t.Errorf("Timeout(%s) = %s, want %s", tc.run, got, tc.want)
		}
	}
	if TimeoutGrace != 30*time.Second {
		t.Errorf("TimeoutGrace = %s, want 30s (seed)", TimeoutGrace)
	}
}

func TestLaneTimeout(t *testing.T) {
	// step advances the clock, then reports progress if asked, then checks
	// whether the task is still alive.
	type step struct {
		pause    bool // before advancing
		advance  time.Duration
		progress bool
		resume   bool // after advancing
		alive    bool
	}
	const run = 10 * time.Second // lane timeout 40 s
	cases := []struct {
		name  string
		run   time.Duration
		steps []step
	}{
		{"fires only after the run timeout plus grace", run, []step{
			{advance: run, alive: true},
			{advance: TimeoutGrace - time.Millisecond, alive: true},
			{advance: time.Millisecond, alive: false},
		}},
		{"progress renews it", run, []step{
			{advance: 30 * time.Second, progress: true, alive: true},
			{advance: 39 * time.Second, alive: true}, // 69 s after the start
			{advance: time.Second, alive: false},     // 40 s after the progress
		}},
		{"every report renews it", run, []step{
			{advance: 35 * time.Second, progress: true, alive: true},
			{advance: 35 * time.Second, progress: true, alive: true},
			{advance: 35 * time.Second, progress: true, alive: true},
			{advance: 35 * time.Second, progress: true, alive: true},
			{advance: 40 * time.Second, alive: false},
		}},
		{"a pause holds it", run, []step{
			{pause: true, advance: 100 * time.Second, alive: true},
			{advance: time.Hour, resume: true, alive: true},
			{advance: 40*time.Second - time.Millisecond, alive: true}, // resuming is progress
			{advance: time.Millisecond, alive: false},
		}},
		{"pauses nest", run, []step{
			{pause: true, advance: time.Second, alive: true},
			{pause: true, advance: time.Second, resume: true, alive: true},
			{advance: time.Hour, alive: true},
			{advance: time.Second, resume: true, alive: true},
			{advance: 40 * time.Second, alive: false},
		}},
		{"no run timeout, no lane timeout", 0, []step{
			{advance: 1000 * time.Hour, alive: true},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			task := h.enter(Request{ID: "r", Session: "s1", Trigger: "user", RunTimeout: tc.run})
			var resumes []func()
			for i, st := range tc.steps {
				if st.pause {
					resumes = append(resumes, task.Pause())
				}
				h.clock.Advance(st.advance)
				if st.progress {
					task.Progress()
				}
				if st.resume {
					resume := resumes[len(resumes)-1]
					resumes = resumes[:len(resumes)-1]
					resume()
					resume() // counts once
				}
				if alive := task.Context().Err() == nil; alive != st.alive {
					t.Fatalf("step %d: alive = %v, want %v", i, alive, st.alive)
				}
			}
			if task.Context().Err() == nil {
				task.Leave()
				if err := task.Context().Err(); !errors.Is(err, context.Canceled) {
					t.Fatalf("context after Leave: %v", err)
				}
				return
			}
			var te *TimeoutError
			if !errors.As(context.Cause(task.Context()), &te) || te.Timeout != Timeout(tc.run) || te.ID != "r" || te.Session != "s1" {
				t.Fatalf("cause = %v, want a *TimeoutError of %s", context.Cause(task.Context()), Timeout(tc.run))
			}
			// The lanes are free: the next run of the session starts at once.
			next := h.enter(req("next", "s1"))
			assertLane(t, h.s.Snapshot(), GlobalLane, []string{"next"}, []string{})
			task.Leave() // late: does nothing
			assertLane(t, h.s.Snapshot(), "session:s1", []string{"next"}, []string{})
			next.Leave()
		})
	}
}

func TestLeaveStopsTheLaneTimeout(t *testing.T) {
	h := newHarness(t, Options{})
	task := h.enter(Request{ID: "r", Session: "s1", RunTimeout: time.Second})
	if h.clock.armed() != 1 {
		t.Fatalf("%d timers armed, want 1", h.clock.armed())
	}
	task.Leave()
	if h.clock.armed() != 0 {
		t.Fatalf("%d timers armed after Leave, want 0", h.clock.armed())
	}
	if c := context.Cause(task.Context()); !errors.Is(c, context.Canceled) {
		t.Fatalf("cause after Leave = %v", c)
	}
}

func TestTimeoutErrorSaysWhatHappened(t *testing.T) {
	msg := (&TimeoutError{ID: "r1", Session: "s1", Timeout: 40 * time.Second}).Error()
	want := "lanes: run r1 of session s1 made no progress for 40s (the run timeout plus 30s grace); the lane cancelled it"
	if msg != want {
		t.Fatalf("Error() = %q\nwant      %q", msg, want)
	}
}
