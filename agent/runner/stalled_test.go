package runner

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// syncTimers is fakeTimers safe for a runtime's goroutines: timers are
// armed on the event path while the test advances the clock.
type syncTimers struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

func (ft *syncTimers) clock() time.Time {
	ft.mu.Lock()
	defer ft.mu.Unlock()
	return ft.now
}

func (ft *syncTimers) after(d time.Duration, f func()) func() bool {
	ft.mu.Lock()
	defer ft.mu.Unlock()
	t := &fakeTimer{at: ft.now.Add(d), f: f}
	ft.timers = append(ft.timers, t)
	return func() bool {
		ft.mu.Lock()
		defer ft.mu.Unlock()
		was := !t.stopped
		t.stopped = true
		return was
	}
}

// advance moves the clock by d, firing what falls due in order (a timer a
// callback arms fires too when it falls within d).
func (ft *syncTimers) advance(d time.Duration) {
	ft.mu.Lock()
	end := ft.now.Add(d)
	ft.mu.Unlock()
	for {
		ft.mu.Lock()
		var next *fakeTimer
		for _, t := range ft.timers {
			if !t.stopped && !t.at.After(end) && (next == nil || t.at.Before(next.at)) {
				next = t
			}
		}
		if next == nil {
			ft.now = end
			ft.mu.Unlock()
			return
		}
		next.stopped, ft.now = true, next.at
		ft.mu.Unlock()
		next.f()
	}
}

func TestStallThresholds(t *testing.T) {
	if StallAfter != 2*time.Minute || StallAbortAfter != 6*time.Minute {
		t.Fatalf("StallAfter %s, StallAbortAfter %s; the seed says 2 min and max(5 min, 3 × 2 min)", StallAfter, StallAbortAfter)
	}
}

func TestStallWatch(t *testing.T) {
	approve := agent.Annotation{Kind: AnnotationApprovalRequest, Data: ApprovalRequest{ID: "c1"}}
	approved := agent.Annotation{Kind: AnnotationApprovalResolved, Data: ApprovalResolved{ID: "c1"}}
	laneWait := agent.Annotation{Kind: AnnotationLaneWait, Data: LaneWait{Ahead: 1}}
	laneDone := agent.Annotation{Kind: AnnotationLaneWaitEnd, Data: LaneWaitEnd{Entered: true}}
	retry := agent.Annotation{Kind: AnnotationRetryStart, Data: RetryStartInfo{DelayMs: 600_000}}
	attempt := agent.Annotation{Kind: AnnotationAttemptStart, Data: AttemptInfo{}}
	delta := agent.MessageUpdate{}
	type step struct {
		ev      agent.Event   // an event to observe, or
		advance time.Duration // time to pass, or
		excuse  *bool         // sub-agents running or not
		want    string        // what has been reported so far: s (stalled), r (resumed), a (aborted)
	}
	yes, no := true, false
	tests := []struct {
		name  string
		steps []step
	}{
		{"a silent run stalls at 2 min and is aborted at 6", []step{
			{ev: agent.AgentStart{}}, {advance: StallAfter - time.Second}, {advance: time.Second, want: "s"},
			{advance: 4*time.Minute - time.Second, want: "s"}, {advance: time.Second, want: "sa"}}},
		{"progress keeps a run from stalling", []step{
			{ev: agent.AgentStart{}}, {advance: 100 * time.Second}, {ev: delta}, {advance: 100 * time.Second},
			{ev: delta}, {advance: 119 * time.Second, want: ""}, {advance: time.Second, want: "s"}}},
		{"progress after a stall resumes it and restarts the count", []step{
			{ev: agent.AgentStart{}}, {advance: StallAfter, want: "s"}, {ev: delta, want: "sr"},
			{advance: 5 * time.Minute, want: "srs"}, {advance: 3 * time.Minute, want: "srsa"}}},
		{"an approval wait is not a stall", []step{
			{ev: agent.AgentStart{}}, {ev: approve}, {advance: time.Hour, want: ""}, {ev: approved},
			{advance: StallAfter, want: "s"}}},
		{"a lane wait is not a stall", []step{
			{ev: agent.AgentStart{}}, {ev: laneWait}, {advance: time.Hour, want: ""}, {ev: laneDone},
			{advance: StallAfter, want: "s"}}},
		{"a retry's delay is not a stall; the attempt ends it", []step{
			{ev: agent.AgentStart{}}, {ev: retry}, {advance: 10 * time.Minute, want: ""}, {ev: attempt},
			{advance: StallAfter, want: "s"}}},
		{"a tool at work is not a stall", []step{
			{ev: agent.AgentStart{}}, {ev: agent.ToolExecutionStart{ToolCallID: "t1"}}, {advance: time.Hour, want: ""},
			{ev: agent.ToolExecutionEnd{ToolCallID: "t1"}}, {advance: StallAfter, want: "s"}}},
		{"waiting for sub-agents is not a stall", []step{
			{ev: agent.AgentStart{}}, {excuse: &yes}, {advance: time.Hour, want: ""}, {excuse: &no},
			{advance: StallAfter, want: "s"}}},
		{"an ended run is not watched", []step{
			{ev: agent.AgentStart{}}, {advance: time.Minute}, {ev: agent.AgentEnd{}}, {advance: time.Hour, want: ""}}},
		{"a new run starts a fresh count", []step{
			{ev: agent.AgentStart{}}, {advance: StallAfter, want: "s"}, {ev: agent.AgentEnd{}, want: "s"}, {ev: agent.AgentStart{}, want: "s"},
			{advance: StallAfter - time.Second, want: "s"}, {advance: time.Second, want: "ss"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ft := &syncTimers{now: time.Unix(1000, 0)}
			w := newStallWatch(ft.clock)
			w.after = ft.after
			var got strings.Builder
			excused := false
			w.excused = func() bool { return excused }
			w.stalled = func(s time.Time, idle time.Duration) {
				got.WriteString("s")
				if idle < StallAfter || !w.stalledSince().Equal(s) {
					t.Errorf("stalled after %s, stalledSince %v, want %v", idle, w.stalledSince(), s)
				}
			}
			w.resumed = func(time.Time) { got.WriteString("r") }
			w.abort = func(reason string) {
				got.WriteString("a")
				if want := AbortStalled(StallAbortAfter); reason != want {
					t.Errorf("abort reason %q, want %q", reason, want)
				}
			}
			for i, s := range tt.steps {
				switch {
				case s.ev != nil:
					w.observe(s.ev)
				case s.excuse != nil:
					excused = *s.excuse
				default:
					ft.advance(s.advance)
				}
				if got.String() != s.want {
					t.Fatalf("after step %d: reported %q, want %q", i, got.String(), s.want)
				}
			}
		})
	}
}

// TestAStalledRunIsShownAndAborted: a run whose provider goes silent is
// reported stalled at 2 min — a run_stalled notice, State().Stalled, the
// lanes view — and aborted at 6 min with a reason that says so.
func TestAStalledRunIsShownAndAborted(t *testing.T) {
	hang := make(chan struct{})
	defer close(hang)
	rt := newRuntime(t, nil, agenttest.NewScript(agenttest.Reply().Wait(hang).Text("late").Stop(agent.StopReasonStop)), Options{})
	ft := &syncTimers{now: time.Unix(1000, 0)}
	rt.stall.after, rt.stall.now = ft.after, ft.clock
	streaming := make(chan struct{}, 1)
	rt.Subscribe(func(ev agent.Event) {
		if a, ok := ev.(agent.Annotation); ok && a.Kind == AnnotationAttemptStart {
			streaming <- struct{}{}
		}
	})
	notes := make(chan Notice, 4)
	rt.SubscribeNotices(func(n Notice) { notes <- n })
	if err := rt.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	<-streaming // the request is under way (its start held back), and says nothing more
	ft.advance(StallAfter)
	n := <-notes
	info, ok := n.Data.(StallInfo)
	if n.Kind != NoticeRunStalled || !ok || info.SessionID != rt.SessionID() || info.IdleMs != StallAfter.Milliseconds() ||
		info.AbortAfterMs != StallAbortAfter.Milliseconds() {
		t.Fatalf("notice %+v, want run_stalled of %s after 2 min", n, rt.SessionID())
	}
	if st := rt.State(); !st.Stalled.Equal(info.Since()) {
		t.Fatalf("State().Stalled = %v, want %v", st.Stalled, info.Since())
	}
	view, err := rt.Lanes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(view.Stalled) != 1 || view.Stalled[0].SessionID != rt.SessionID() {
		t.Fatalf("lanes view stalled = %+v", view.Stalled)
	}
	ft.advance(StallAbortAfter - StallAfter)
	waitIdle(t, rt)
	msgs := rt.State().Messages
	if last := msgs[len(msgs)-1]; last.StopReason != agent.StopReasonAborted || last.ErrorMessage != AbortStalled(StallAbortAfter) {
		t.Fatalf("last message %+v, want aborted: %s", last, AbortStalled(StallAbortAfter))
	}
	if st := rt.State(); !st.Stalled.IsZero() {
		t.Fatalf("an ended run is still stalled: %v", st.Stalled)
	}
	if view, _ := rt.Lanes(context.Background()); len(view.Stalled) != 0 {
		t.Fatalf("the lanes view still has %+v", view.Stalled)
	}
}
