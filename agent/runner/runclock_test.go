package runner

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// fakeTimers is a clock whose timers fire when the test advances it. The
// runtime arms its timers on its own goroutines, so it is locked.
type fakeTimers struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
	armed  *sync.Cond // signalled when a timer is set (waitArmed)
}

type fakeTimer struct {
	at      time.Time
	f       func()
	stopped bool
}

func (ft *fakeTimers) cond() *sync.Cond {
	if ft.armed == nil {
		ft.armed = sync.NewCond(&ft.mu)
	}
	return ft.armed
}

func (ft *fakeTimers) after(d time.Duration, f func()) func() bool {
	ft.mu.Lock()
	defer ft.mu.Unlock()
	t := &fakeTimer{at: ft.now.Add(d), f: f}
	ft.timers = append(ft.timers, t)
	ft.cond().Broadcast()
	return func() bool {
		ft.mu.Lock()
		defer ft.mu.Unlock()
		was := !t.stopped
		t.stopped = true
		return was
	}
}

// clock is the fake time now.
func (ft *fakeTimers) clock() time.Time {
	ft.mu.Lock()
	defer ft.mu.Unlock()
	return ft.now
}

// waitArmed returns once a timer is set and not yet stopped or fired.
func (ft *fakeTimers) waitArmed() {
	ft.mu.Lock()
	defer ft.mu.Unlock()
	for !slices.ContainsFunc(ft.timers, func(t *fakeTimer) bool { return !t.stopped }) {
		ft.cond().Wait()
	}
}

func (ft *fakeTimers) advance(d time.Duration) {
	ft.mu.Lock()
	ft.now = ft.now.Add(d)
	var due []func()
	for _, t := range ft.timers {
		if !t.stopped && !t.at.After(ft.now) {
			t.stopped = true
			due = append(due, t.f)
		}
	}
	ft.mu.Unlock()
	for _, f := range due {
		f()
	}
}

// step is one step of a runClock case.
type step struct {
	do      string // start, stop, pause, resume, compact, compacted, or a duration to advance
	aborted bool   // whether the run has been aborted after the step
}

func TestRunClock(t *testing.T) {
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
		// A compaction under way at the limit gets compactionGrace (30 s),
		// once; the run ends as soon as the compaction does.
		{"a compaction at the limit finishes in its grace", 10 * time.Second, []step{
			{"start", false}, {"9s", false}, {"compact", false}, {"1s", false}, {"29s", false}, {"compacted", true}}},
		{"a compaction longer than its grace is cut", 10 * time.Second, []step{
			{"start", false}, {"9s", false}, {"compact", false}, {"1s", false}, {"29s", false}, {"1s", true}}},
		{"a compaction done before the limit gets no grace", 10 * time.Second, []step{
			{"start", false}, {"compact", false}, {"5s", false}, {"compacted", false}, {"4s", false}, {"1s", true}}},
		{"a compaction in a run without a limit changes nothing", 0, []step{
			{"start", false}, {"compact", false}, {"1000h", false}, {"compacted", false}}},
		{"the grace is the run's: the next run's limit is whole", 10 * time.Second, []step{
			{"start", false}, {"compact", false}, {"5s", false}, {"stop", false}, {"start", false}, {"9s", false}, {"1s", true}}},
		{"an approval wait during the grace does not count", 10 * time.Second, []step{
			{"start", false}, {"compact", false}, {"10s", false}, {"20s", false}, {"pause", false}, {"1h", false},
			{"resume", false}, {"9s", false}, {"1s", true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ft := &fakeTimers{now: time.Unix(0, 0)}
			var reasons []string
			c := newRunClock(tt.limit, ft.clock, func(r string) { reasons = append(reasons, r) })
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
				case "compact":
					c.compactionStarted()
				case "compacted":
					c.compactionEnded()
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

// TestCompactionEventsReachTheRunClock: the run's compaction_start and
// compaction_end are what give the clock its grace (Runtime.timeRun).
func TestCompactionEventsReachTheRunClock(t *testing.T) {
	rt := newRuntime(t, nil, agenttest.NewScript(), Options{RunTimeout: 10 * time.Second})
	ft := &fakeTimers{now: time.Unix(0, 0)}
	rt.clock.after, rt.clock.now = ft.after, ft.clock
	rt.timeRun(agent.AgentStart{})
	rt.timeRun(agent.Annotation{Kind: AnnotationCompactionStart, Data: CompactionStart{Reason: "timeout"}})
	ft.advance(20 * time.Second)
	if rt.TimedOut() {
		t.Fatal("the limit cut the compaction under way")
	}
	rt.timeRun(agent.Annotation{Kind: AnnotationCompactionEnd, Data: CompactionEnd{Reason: "timeout"}})
	if !rt.TimedOut() {
		t.Fatal("the run outlived its limit once the compaction ended")
	}
	rt.timeRun(agent.AgentEnd{})
}
