package runner

import (
	"context"
	"errors"
	"sync"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/lanes"
	"github.com/steer-tui/steer/persistence"
)

// Every run is serialised twice (SPEC §4): in its session's lane, then in
// the global lane (the sub-agent lane for a child's run). A run takes its
// lanes before its first model request, holds them until agent_end, renews
// the lane timeout with every event, and pauses it while an approval waits.

// LanesView is what `steer inspect lanes --json` prints: the lanes of every
// live steer process on the state directory (this one included), and the
// runs of this process that are stalled. Neither is ever null.
type LanesView struct {
	Processes []persistence.ProcessLanes `json:"processes"`
	Stalled   []StalledRun               `json:"stalled"`
}

// runLane is the lane task of the run under way, from enterLanes until
// agent_end; guarded by its mutex. It calls nothing but the task.
type runLane struct {
	mu   sync.Mutex
	task *lanes.Task
}

// held is the task of the run under way, or nil.
func (l *runLane) held() *lanes.Task {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.task
}

// hold makes task the run's.
func (l *runLane) hold(task *lanes.Task) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.task = task
}

// leave gives the run's lanes back (agent_end).
func (l *runLane) leave() {
	l.mu.Lock()
	task := l.task
	l.task = nil
	l.mu.Unlock()
	if task != nil {
		task.Leave()
	}
}

// progress renews the lane timeout of the run under way, if any.
func (l *runLane) progress() {
	if task := l.held(); task != nil {
		task.Progress()
	}
}

// pause holds the lane timeout while an approval waits.
func (l *runLane) pause() (resume func()) {
	if task := l.held(); task != nil {
		return task.Pause()
	}
	return func() {}
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
	if held := r.lane.held(); held != nil {
		return held.Mark(ctx), nil
	}
	id := r.runName()
	r.mu.Lock()
	req := lanes.Request{ID: id, Session: r.session.id, Trigger: triggerUser,
		SubAgent: r.opts.SubAgent, RunTimeout: r.opts.RunTimeout}
	r.mu.Unlock()
	r.startLanePublisher()
	task, err := enterWatched(ctx, r.sched, req, out)
	if err != nil {
		return ctx, err
	}
	if err := ctx.Err(); err != nil { // aborted as it got in: agent_end may have passed
		task.Leave()
		return ctx, err
	}
	r.lane.hold(task)
	go watchLane(task, r.agent.AbortWith)
	return task.Mark(ctx), nil
}

// watchLane aborts the run whose lane timed out (with abort): it made no
// progress for its run timeout and the grace after it.
func watchLane(task *lanes.Task, abort func(reason string)) {
	<-task.Context().Done()
	var timeout *lanes.TimeoutError
	if errors.As(context.Cause(task.Context()), &timeout) {
		abort(timeout.Error())
	}
}

// laneProgress renews the lane timeout; every event of the run counts.
func (r *Runtime) laneProgress(ev agent.Event) {
	if _, ok := ev.(agent.AgentEnd); ok {
		r.keeper.reserveBackgroundCompaction() // before the lanes are left: see there
		r.lane.leave()
		return
	}
	r.lane.progress()
}

// Lanes is the lanes of every live steer process on the state directory;
// without a database, this process's.
func (r *Runtime) Lanes(ctx context.Context) (LanesView, error) {
	if r.store == nil {
		return LanesView{Processes: []persistence.ProcessLanes{{Snapshot: r.sched.Snapshot()}}, Stalled: r.stalls().list()}, nil
	}
	if owner := r.lanesOwner; owner != nil {
		if err := owner.lanePub.publishNow(ctx); err != nil {
			return LanesView{}, err
		}
	}
	procs, err := r.store.LaneSnapshots(ctx)
	if err != nil {
		return LanesView{}, err
	}
	return LanesView{Processes: procs, Stalled: r.stalls().list()}, nil
}

// startLanePublisher starts publishing this process's lanes (see
// lanePublisher): the runtime that owns the scheduler publishes it.
func (r *Runtime) startLanePublisher() {
	if owner := r.lanesOwner; owner != nil {
		owner.lanePub.start()
	}
}
