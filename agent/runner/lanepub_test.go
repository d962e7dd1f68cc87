package runner

import (
	"context"
	"log/slog"
	"testing"

	"github.com/steer-tui/steer/lanes"
	"github.com/steer-tui/steer/persistence"
)

func newTestLanePublisher(t *testing.T, store *persistence.Store, sched *lanes.Scheduler) *lanePublisher {
	t.Helper()
	w := newTestWrites(&writesNotes{})
	t.Cleanup(w.end)
	return newLanePublisher(store, sched, w, slog.New(slog.DiscardHandler))
}

// TestLanePublisherShowsThisProcessWhileItRuns: once started, this
// process's lanes are in the shared database, as they are now; once
// stopped, they are not. Without a store, nothing happens.
func TestLanePublisherShowsThisProcessWhileItRuns(t *testing.T) {
	ctx := context.Background()
	store := openStore(t, t.TempDir())
	t.Cleanup(func() { store.Close() })
	sched := lanes.New(lanes.Options{MaxConcurrent: 2})
	p := newTestLanePublisher(t, store, sched)
	if err := p.publishNow(ctx); err != nil {
		t.Fatalf("publishNow before the start = %v", err)
	}
	if procs, err := store.LaneSnapshots(ctx); err != nil || len(procs) != 0 {
		t.Fatalf("before the start: %+v, %v; want nothing published", procs, err)
	}
	p.start()
	p.start() // once
	task, err := sched.Enter(ctx, lanes.Request{ID: "r_1", Session: "s_1", Trigger: triggerUser})
	if err != nil {
		t.Fatal(err)
	}
	defer task.Leave()
	if err := p.publishNow(ctx); err != nil {
		t.Fatal(err)
	}
	procs, err := store.LaneSnapshots(ctx)
	if err != nil || len(procs) != 1 || laneRunning(procs[0].Snapshot) != 1 {
		t.Fatalf("while running: %+v, %v; want this process with its run", procs, err)
	}
	p.stop(ctx)
	p.stop(ctx) // a second stop has nothing to do
	if procs, err := store.LaneSnapshots(ctx); err != nil || len(procs) != 0 {
		t.Fatalf("after the stop: %+v, %v; want nothing published", procs, err)
	}

	idle := newTestLanePublisher(t, nil, sched)
	idle.start()
	if err := idle.publishNow(ctx); err != nil {
		t.Errorf("publishNow without a store = %v", err)
	}
	idle.stop(ctx)
}

func laneRunning(s lanes.Snapshot) int {
	running, _ := global(s)
	return running
}

// TestRunLane: the run's lane task is paused, renewed and left through
// runLane, and each does nothing when no run holds one.
func TestRunLane(t *testing.T) {
	var l runLane
	l.pause()()
	l.progress()
	l.leave()
	sched := lanes.New(lanes.Options{MaxConcurrent: 1})
	task, err := sched.Enter(context.Background(), lanes.Request{ID: "r_1", Session: "s_1", Trigger: triggerUser})
	if err != nil {
		t.Fatal(err)
	}
	l.hold(task)
	if l.held() != task {
		t.Fatal("held is not the task held")
	}
	resume := l.pause()
	l.progress()
	resume()
	l.leave()
	if l.held() != nil {
		t.Error("the task is still held after leave")
	}
	if running, _ := global(sched.Snapshot()); running != 0 {
		t.Errorf("%d runs in the global lane after leave, want 0", running)
	}
}
