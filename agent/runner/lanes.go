package runner

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/lanes"
	"github.com/steer-tui/steer/persistence"
)

// Every run is serialised twice (SPEC §4): in its session's lane, then in
// the global lane (the sub-agent lane for a child's run). A run takes its
// lanes before its first model request, holds them until agent_end, renews
// the lane timeout with every event, and pauses it while an approval waits.

// lanePublishEvery bounds how often the lanes' snapshot is written to the
// shared database, however busy they are.
const lanePublishEvery = 250 * time.Millisecond

// LanesView is what `steer inspect lanes --json` prints: the lanes of every
// live steer process on the state directory (this one included), and the
// runs of this process that are stalled. Neither is ever null.
type LanesView struct {
	Processes []persistence.ProcessLanes `json:"processes"`
	Stalled   []StalledRun               `json:"stalled"`
}

// runLane is the lane task of the run under way; guarded by its mutex.
type runLane struct {
	mu   sync.Mutex
	task *lanes.Task
}

// enterLanes takes the run's lanes before its first request: it waits while
// the session's lane or the global lane is full, in priority order, and
// returns ctx's error if the run is aborted meanwhile. While it waits, out
// says for which lane (enterWatched). It returns the request's context
// marked as inside the run's lanes (lanes.Task.Mark), for this request and
// every later one of the run: the run's contexts were made before it
// entered, so without the mark a queued entry made from inside the run
// would wait for the run itself until its deadline instead of being
// refused at once as re-entry (SPEC §4).
func (r *Runtime) enterLanes(ctx context.Context, out *agent.AssistantStream) (context.Context, error) {
	r.lane.mu.Lock()
	held := r.lane.task
	r.lane.mu.Unlock()
	if held != nil {
		return held.Mark(ctx), nil
	}
	id := r.runName()
	r.mu.Lock()
	req := lanes.Request{ID: id, Session: r.session.id, Trigger: triggerUser,
		SubAgent: r.opts.SubAgent, RunTimeout: r.opts.RunTimeout}
	r.mu.Unlock()
	r.startLanePublisher()
	task, err := r.enterWatched(ctx, req, out)
	if err != nil {
		return ctx, err
	}
	if err := ctx.Err(); err != nil { // aborted as it got in: agent_end may have passed
		task.Leave()
		return ctx, err
	}
	r.lane.mu.Lock()
	r.lane.task = task
	r.lane.mu.Unlock()
	go r.watchLane(task)
	return task.Mark(ctx), nil
}

// watchLane aborts the run whose lane timed out: it made no progress for
// its run timeout and the grace after it.
func (r *Runtime) watchLane(task *lanes.Task) {
	<-task.Context().Done()
	var timeout *lanes.TimeoutError
	if errors.As(context.Cause(task.Context()), &timeout) {
		r.agent.AbortWith(timeout.Error())
	}
}

// leaveLanes gives the run's lanes back (agent_end).
func (r *Runtime) leaveLanes() {
	r.lane.mu.Lock()
	task := r.lane.task
	r.lane.task = nil
	r.lane.mu.Unlock()
	if task != nil {
		task.Leave()
	}
}

// laneProgress renews the lane timeout; every event of the run counts.
func (r *Runtime) laneProgress(ev agent.Event) {
	if _, ok := ev.(agent.AgentEnd); ok {
		r.keeper.reserveBackgroundCompaction() // before the lanes are left: see there
		r.leaveLanes()
		return
	}
	r.lane.mu.Lock()
	task := r.lane.task
	r.lane.mu.Unlock()
	if task != nil {
		task.Progress()
	}
}

// pauseLane holds the lane timeout while an approval waits.
func (r *Runtime) pauseLane() (resume func()) {
	r.lane.mu.Lock()
	task := r.lane.task
	r.lane.mu.Unlock()
	if task == nil {
		return func() {}
	}
	return task.Pause()
}

// publishLanes keeps this process's lanes in the shared database until
// stop is closed, so that `steer inspect lanes` elsewhere sees them.
func (r *Runtime) publishLanes(pub *persistence.LanePublisher, stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	for {
		select {
		case <-stop:
			return
		case <-r.sched.Changes():
		}
		if err := r.givenUp(pub.Publish(r.writeCtx, r.sched.Snapshot())); err != nil {
			r.log.Warn("publishing the lanes failed", "error", err)
		}
		select {
		case <-stop:
			return
		case <-time.After(lanePublishEvery):
		}
	}
}

// Lanes is the lanes of every live steer process on the state directory;
// without a database, this process's.
func (r *Runtime) Lanes(ctx context.Context) (LanesView, error) {
	if r.store == nil {
		return LanesView{Processes: []persistence.ProcessLanes{{Snapshot: r.sched.Snapshot()}}, Stalled: r.stalls().list()}, nil
	}
	var pub *persistence.LanePublisher
	if owner := r.lanesOwner; owner != nil {
		owner.pubMu.Lock()
		pub = owner.lanePub
		owner.pubMu.Unlock()
	}
	if pub != nil {
		// What this process runs now, not as last published.
		if err := pub.Publish(ctx, r.sched.Snapshot()); err != nil {
			return LanesView{}, err
		}
	}
	procs, err := r.store.LaneSnapshots(ctx)
	if err != nil {
		return LanesView{}, err
	}
	return LanesView{Processes: procs, Stalled: r.stalls().list()}, nil
}

// startLanePublisher starts publishing this process's lanes, once, with
// the first run of any runtime sharing them: a steer that never runs leaves
// no trace in the database. The runtime that owns the scheduler publishes
// it.
func (r *Runtime) startLanePublisher() {
	if owner := r.lanesOwner; owner != nil && owner.store != nil {
		owner.startPublishing()
	}
}

func (r *Runtime) startPublishing() {
	r.pubMu.Lock()
	defer r.pubMu.Unlock()
	if r.lanePub != nil || r.stopPublish != nil {
		return
	}
	pub, err := r.store.LanePublisher()
	if err != nil {
		r.log.Warn("the lanes will not be visible to other steer processes", "error", err)
		r.stopPublish = make(chan struct{}) // not again
		return
	}
	r.lanePub, r.stopPublish, r.published = pub, make(chan struct{}), make(chan struct{})
	go r.publishLanes(pub, r.stopPublish, r.published)
}

// stopLanePublisher stops publishing and takes this process's rows out of
// the shared database, giving up on the database when ctx ends (the rows of
// a publisher whose lock is gone are dropped by the next listing).
func (r *Runtime) stopLanePublisher(ctx context.Context) {
	r.pubMu.Lock()
	defer r.pubMu.Unlock()
	if r.lanePub == nil {
		return
	}
	if r.stopPublish != nil {
		close(r.stopPublish)
		<-r.published
		r.stopPublish = nil
	}
	if err := r.givenUp(r.lanePub.Close(ctx)); err != nil {
		r.log.Warn("removing the lanes from the database failed", "error", err)
	}
	r.lanePub = nil
}
