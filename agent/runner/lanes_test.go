package runner

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/lanes"
	"github.com/steer-tui/steer/persistence"
)

// TestRunsShareTheGlobalLane: with maxConcurrent 2, three runtimes (three
// sessions) sharing one scheduler: two runs go, the third waits in the
// global lane and starts when one ends.
func TestRunsShareTheGlobalLane(t *testing.T) {
	sched := lanes.New(lanes.Options{MaxConcurrent: 2})
	var releases []chan struct{}
	var rts []*Runtime
	for range 3 {
		release := make(chan struct{})
		releases = append(releases, release)
		script := agenttest.NewScript(agenttest.Reply().Text("working").Wait(release).Stop(agent.StopReasonStop))
		rt := newRuntime(t, nil, script, Options{Lanes: sched})
		rts = append(rts, rt)
	}
	for _, rt := range rts {
		if err := rt.Prompt(context.Background(), "go"); err != nil {
			t.Fatal(err)
		}
	}
	waitSnapshot(t, sched, func(s lanes.Snapshot) bool { running, waiting := global(s); return running == 2 && waiting == 1 })
	close(releases[0])
	close(releases[1])
	close(releases[2])
	for _, rt := range rts {
		waitIdle(t, rt)
		if last := rt.State().Messages[len(rt.State().Messages)-1]; last.TextContent() != "working" {
			t.Fatalf("a run did not complete: %+v", last)
		}
	}
	if running, waiting := global(sched.Snapshot()); running != 0 || waiting != 0 {
		t.Fatalf("the global lane still holds %d running, %d waiting", running, waiting)
	}
}

// TestReentryFromRunContextIsRefusedAtOnce: a queued entry into the run's
// own session lane made with the context of the run's request — from the
// provider, here — is refused at once as re-entry (SPEC §4); without the
// run's mark on that context it would wait for the run itself until its
// deadline.
func TestReentryFromRunContextIsRefusedAtOnce(t *testing.T) {
	const deadline = 5 * time.Second // what the entry would wait without the mark
	sched := lanes.New(lanes.Options{})
	script := agenttest.NewScript(agenttest.Reply().Text("done").Stop(agent.StopReasonStop))
	var rt *Runtime
	entered := make(chan error, 1)
	stream := func(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
		inner, cancel := context.WithTimeout(ctx, deadline)
		defer cancel()
		task, err := sched.Enter(inner, lanes.Request{ID: "inner", Session: rt.SessionID(), Trigger: triggerManual})
		if err == nil {
			task.Leave()
		}
		entered <- err
		return script.Stream(ctx, m, llm, opts)
	}
	rt, err := New(context.Background(), Options{Lanes: sched, Workspace: "/ws", Now: agenttest.Clock,
		Providers: []Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: stream}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = rt.Close(ctx)
	})
	if err := rt.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	var got error
	select {
	case got = <-entered:
	case <-time.After(2 * deadline):
		t.Fatal("the provider was never asked")
	}
	var re *lanes.ReentrantError
	if !errors.As(got, &re) || re.Lane != "session:"+rt.SessionID() {
		t.Fatalf("the entry from the run's request = %v, want a *lanes.ReentrantError for the run's session lane", got)
	}
	waitIdle(t, rt)
}

// global counts the global lane's running and waiting runs.
func global(s lanes.Snapshot) (running, waiting int) {
	for _, l := range s.Lanes {
		if l.Kind == lanes.KindGlobal {
			return len(l.Running), len(l.Waiting)
		}
	}
	return 0, 0
}

// waitSnapshot waits for the scheduler's snapshot to satisfy cond, woken by
// its changes.
func waitSnapshot(t *testing.T, sched *lanes.Scheduler, cond func(lanes.Snapshot) bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for !cond(sched.Snapshot()) {
		select {
		case <-sched.Changes():
		case <-ctx.Done():
			t.Fatalf("the lanes never got there: %+v", sched.Snapshot())
		}
	}
}

// TestAWaitingRunSaysForWhichLane: with maxConcurrent 1, a second session's
// run waits in the global lane behind the first and its stream says so — a
// lane_wait with its place — and once it is in, a lane_wait_end before its
// first attempt.
func TestAWaitingRunSaysForWhichLane(t *testing.T) {
	sched := lanes.New(lanes.Options{MaxConcurrent: 1})
	release := make(chan struct{})
	first := newRuntime(t, nil, agenttest.NewScript(agenttest.Reply().Text("first").Wait(release).Stop(agent.StopReasonStop)), Options{Lanes: sched})
	second := newRuntime(t, nil, agenttest.NewScript(agenttest.Reply().Text("second").Stop(agent.StopReasonStop)), Options{Lanes: sched})
	kinds := make(chan agent.Annotation, 16)
	second.Subscribe(func(ev agent.Event) {
		if a, ok := ev.(agent.Annotation); ok {
			switch a.Kind {
			case AnnotationLaneWait, AnnotationLaneWaitEnd, AnnotationAttemptStart:
				kinds <- a
			}
		}
	})
	if err := first.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	waitSnapshot(t, sched, func(s lanes.Snapshot) bool { running, _ := global(s); return running == 1 })
	if err := second.Prompt(context.Background(), "go too"); err != nil {
		t.Fatal(err)
	}
	got := nextAnnotation(t, kinds)
	w, ok := got.Data.(LaneWait)
	if got.Kind != AnnotationLaneWait || !ok || w.Lane != lanes.KindGlobal || w.Ahead != 1 || w.Since.IsZero() {
		t.Fatalf("the waiting run announced %s %+v, want a lane_wait in the global lane, 1 ahead", got.Kind, got.Data)
	}
	close(release)
	if got := nextAnnotation(t, kinds); got.Kind != AnnotationLaneWaitEnd || got.Data != (LaneWaitEnd{Entered: true}) {
		t.Fatalf("after the wait came %s %+v, want lane_wait_end entered", got.Kind, got.Data)
	}
	if got := nextAnnotation(t, kinds); got.Kind != AnnotationAttemptStart {
		t.Fatalf("after the wait came %s, want its attempt_start", got.Kind)
	}
	waitIdle(t, first)
	waitIdle(t, second)
}

// TestLaneWaiting reads a run's place from a snapshot.
func TestLaneWaiting(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	snap := lanes.Snapshot{Lanes: []lanes.Lane{
		{Name: lanes.GlobalLane, Kind: lanes.KindGlobal, Running: []lanes.Entry{{ID: "r_run"}},
			Waiting: []lanes.Entry{{ID: "r_a", Enqueued: at}, {ID: "r_b", Enqueued: at.Add(time.Second)}}},
		{Name: lanes.SubAgentLane, Kind: lanes.KindSubAgent},
		{Name: "session:s", Kind: lanes.KindSession, Session: "s", Running: []lanes.Entry{{ID: "r_s1"}},
			Waiting: []lanes.Entry{{ID: "r_s2", Enqueued: at}}},
	}}
	for _, c := range []struct {
		id   string
		want LaneWait
		ok   bool
	}{
		{"r_a", LaneWait{Lane: lanes.KindGlobal, Ahead: 1, Since: at}, true},
		{"r_b", LaneWait{Lane: lanes.KindGlobal, Ahead: 2, Since: at.Add(time.Second)}, true},
		{"r_s2", LaneWait{Lane: lanes.KindSession, Ahead: 1, Since: at}, true},
		{"r_run", LaneWait{}, false},
		{"r_none", LaneWait{}, false},
	} {
		if got, ok := laneWaiting(snap, c.id); got != c.want || ok != c.ok {
			t.Errorf("laneWaiting(%s) = %+v, %v; want %+v, %v", c.id, got, ok, c.want, c.ok)
		}
	}
}

// nextAnnotation receives the next annotation from c, failing after a while.
func nextAnnotation(t *testing.T, c <-chan agent.Annotation) agent.Annotation {
	t.Helper()
	select {
	case a := <-c:
		return a
	case <-time.After(10 * time.Second):
		t.Fatal("no annotation came")
		return agent.Annotation{}
	}
}

// TestTheLaneNamesTheRunItsRecordNames: a run's first request enters the
// lanes while its agent_start is still being dispatched; the lane entry and
// the run record must still carry the same run id (steer inspect lanes,
// /lanes and a lane timeout's error name the run being made, not the one
// before it), run after run.
func TestTheLaneNamesTheRunItsRecordNames(t *testing.T) {
	store := openStore(t, t.TempDir())
	sched := lanes.New(lanes.Options{MaxConcurrent: 4})
	var seen []string // the session lane's running entry, as each request saw it
	stream := func(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
		for _, l := range sched.Snapshot().Lanes {
			if l.Kind == lanes.KindSession {
				for _, e := range l.Running {
					seen = append(seen, e.ID)
				}
			}
		}
		return agenttest.NewScript(agenttest.Reply().Text("ok").Stop(agent.StopReasonStop)).Stream(ctx, m, llm, opts)
	}
	rt, err := New(context.Background(), Options{Providers: []Provider{{Name: "p", Models: []agent.Model{soakBig}, Stream: stream}},
		Model: soakBig.Ref(), Store: store, Lanes: sched, Workspace: "/ws"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rt.Close(context.Background()) })
	const runs = 50
	for range runs {
		if err := rt.Prompt(context.Background(), "hi"); err != nil {
			t.Fatal(err)
		}
		waitIdle(t, rt)
	}
	recs, err := store.ListRuns(context.Background(), persistence.RunsOptions{SessionID: rt.SessionID(), Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != runs || len(recs) != runs {
		t.Fatalf("%d requests saw a lane entry, %d records; want %d each", len(seen), len(recs), runs)
	}
	for i, id := range seen {
		if rec := recs[len(recs)-1-i]; rec.ID != id {
			t.Fatalf("run %d: the lane names %s, its record %s", i, id, rec.ID)
		}
	}
}
