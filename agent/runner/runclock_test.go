package runner

import (
	"testing"
	"time"
)

// fakeTimers is a clock whose timers fire when the test advances it.
type fakeTimers struct {
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	at      time.Time
	f       func()
	stopped bool
}

func (ft *fakeTimers) after(d time.Duration, f func()) func() bool {
	t := &fakeTimer{at: ft.now.Add(d), f: f}
	ft.timers = append(ft.timers, t)
	return func() bool { was := !t.stopped; t.stopped = true; return was }
}

func (ft *fakeTimers) advance(d time.Duration) {
	ft.now = ft.now.Add(d)
	for _, t := range ft.timers {
		if !t.stopped && !t.at.After(ft.now) {
			t.stopped = true
			t.f()
		}
	}
}

func TestRunClock(t *testing.T) {
	type step struct {
		do      string // start, stop, pause, resume, or a duration to advance
		aborted bool   // whether the run has been aborted after the step
	}
	tests := []struct {
		name  string
		limit time.Duration
		steps []step
	}{
		{"fires at the limit", 10 * time.Second, []step{{"start", false}, {"9s", false}, {"1s", true}}},
		{"no limit never fires", 0, []step{{"start", false}, {"1000h", false}}},
		{"a run that ends is not aborted", 10 * time.Second, []step{{"start", false}, {"5s", false}, {"stop", false}, {"10s", false}}},
		{"an approval wait does not count", 10 * time.Second, []step{
			{"start", false}, {"6s", false}, {"pause", false}, {"1h", false}, {"resume", false}, {"3s", false}, {"1s", true}}},
		{"two approvals: the clock runs when both are answered", 10 * time.Second, []step{
			{"start", false}, {"pause", false}, {"pause", false}, {"5s", false}, {"resume", false}, {"20s", false},
			{"resume", false}, {"9s", false}, {"1s", true}}},
		{"a new run starts a fresh clock", 10 * time.Second, []step{
			{"start", false}, {"8s", false}, {"stop", false}, {"start", false}, {"8s", false}, {"2s", true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ft := &fakeTimers{now: time.Unix(0, 0)}
			var reasons []string
			c := newRunClock(tt.limit, func() time.Time { return ft.now }, func(r string) { reasons = append(reasons, r) })
			c.after = ft.after
			for i, s := range tt.steps {
				switch s.do {
				case "start":
					c.start()
				case "stop":
					c.stop()
				case "pause":
					c.pause()
				case "resume":
					c.resume()
				default:
					d, err := time.ParseDuration(s.do)
					if err != nil {
						t.Fatal(err)
					}
					ft.advance(d)
				}
				if got := len(reasons) > 0; got != s.aborted {
					t.Fatalf("after step %d (%s): aborted = %v, want %v", i, s.do, got, s.aborted)
				}
			}
			if len(reasons) > 0 {
				if reasons[0] != AbortTimeout(tt.limit) || !c.timedOut() {
					t.Fatalf("reason %q, timedOut %v", reasons[0], c.timedOut())
				}
				if len(reasons) > 1 {
					t.Fatalf("aborted %d times", len(reasons))
				}
			}
		})
	}
}
