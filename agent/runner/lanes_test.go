package runner

import (
	"context"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/lanes"
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
		if err := rt.Prompt("go"); err != nil {
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
