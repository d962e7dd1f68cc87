package lanes

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// The default capacities of the pool lanes (seed).
const (
	DefaultMaxConcurrent = 4 // the global lane: agent.maxConcurrent
	DefaultMaxSubAgents  = 8 // the sub-agent lane
)

// Options configures a Scheduler. The zero value has the default
// capacities and the wall clock.
type Options struct {
	// MaxConcurrent caps the runs of all sessions at once (the global
	// lane); 0 or less means DefaultMaxConcurrent.
	MaxConcurrent int
	// MaxSubAgents caps the sub-agent runs at once (the sub-agent lane);
	// 0 or less means DefaultMaxSubAgents.
	MaxSubAgents int
	// Clock stamps snapshots and runs the lane timeouts; nil means the
	// wall clock.
	Clock Clock
}

// Request describes a run that wants to enter.
type Request struct {
	// ID names the run in snapshots and errors (its run id).
	ID string
	// Session is the run's session; it is required.
	Session string
	// Trigger is what started the run ("user", "cron", …); it sets the
	// priority (PriorityOf).
	Trigger string
	// SubAgent sends the run to the sub-agent lane instead of the global
	// one.
	SubAgent bool
	// RunTimeout is the run's own timeout, 0 for none; the lane timeout is
	// Timeout(RunTimeout).
	RunTimeout time.Duration
}

// Scheduler holds the lanes of one process: a lane per busy session, the
// global lane and the sub-agent lane. Its methods are safe for concurrent
// use. It starts no goroutine of its own; the only ones are the clock's
// timers of the lane timeouts, stopped when their tasks leave.
type Scheduler struct {
	clock   Clock
	changes chan struct{}

	watchMu sync.Mutex
	watch   chan struct{} // closed at the next change; nil until watched

	mu        sync.Mutex
	global    *lane
	subagents *lane
	sessions  map[string]*lane        // the busy ones only
	maint     map[string]*maintenance // sessions with deferred maintenance
}

// New returns a Scheduler with nothing running.
func New(opts Options) *Scheduler {
	if opts.MaxConcurrent <= 0 {
		opts.MaxConcurrent = DefaultMaxConcurrent
	}
	if opts.MaxSubAgents <= 0 {
		opts.MaxSubAgents = DefaultMaxSubAgents
	}
	if opts.Clock == nil {
		opts.Clock = systemClock{}
	}
	return &Scheduler{
		clock:     opts.Clock,
		changes:   make(chan struct{}, 1),
		global:    &lane{name: GlobalLane, kind: KindGlobal, cap: opts.MaxConcurrent},
		subagents: &lane{name: SubAgentLane, kind: KindSubAgent, cap: opts.MaxSubAgents},
		sessions:  map[string]*lane{},
		maint:     map[string]*maintenance{},
	}
}

// Enter is the queued entry point: it waits for req's session lane, then
// for the session's deferred maintenance, then for its pool lane (global or
// sub-agent), and returns the admitted task; the caller runs it under
// Task.Context and must call Task.Leave when done. A ctx that ends while
// waiting takes the request out of every queue and Enter returns ctx's
// cause. A ctx that belongs to a task (Task.Context, or one Task.Mark
// marked) holding a lane req needs — the same session, or the same pool —
// gets a *ReentrantError at once: waiting would deadlock.
func (s *Scheduler) Enter(ctx context.Context, req Request) (*Task, error) {
	if req.Session == "" {
		return nil, errors.New("lanes: enter: empty session id")
	}
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	t := &Task{s: s, req: req, priority: PriorityOf(req.Trigger), timeout: Timeout(req.RunTimeout)}
	// Finding the session lane and queueing in it are one step under the
	// lock: a lane found and queued in after an unlock may have gone idle
	// and been dropped meanwhile, and the next run of the session would
	// create a second lane beside it — two runs of one session inside.
	s.mu.Lock()
	if holder, name := s.holderLocked(ctx, req); holder != nil {
		s.mu.Unlock()
		return nil, &ReentrantError{Lane: name, Holder: holder.req.ID}
	}
	t.session = newSlot(t, s.sessionLaneLocked(req.Session))
	started := s.enqueueLocked(t.session)
	s.mu.Unlock()
	s.changed()
	if err := s.await(ctx, t.session, started); err != nil {
		return nil, fmt.Errorf("lanes: run %s waiting for %s: %w", req.ID, t.session.l.name, err)
	}
	if err := s.waitMaintenance(ctx, req.Session); err != nil {
		s.leave(t, nil)
		return nil, fmt.Errorf("lanes: run %s waiting for the maintenance of session %s: %w", req.ID, req.Session, err)
	}
	t.pool = newSlot(t, s.pool(req.SubAgent))
	s.mu.Lock()
	started = s.enqueueLocked(t.pool)
	s.mu.Unlock()
	s.changed()
	if err := s.await(ctx, t.pool, started); err != nil {
		s.leave(t, nil)
		return nil, fmt.Errorf("lanes: run %s waiting for the %s lane: %w", req.ID, t.pool.l.name, err)
	}
	t.begin(ctx)
	return t, nil
}

// sessionLaneLocked is session's lane, created when the session has none
// busy; the caller holds s.mu and queues in it before unlocking, so that it
// is not dropped as idle.
func (s *Scheduler) sessionLaneLocked(session string) *lane {
	l := s.sessions[session]
	if l == nil {
		l = &lane{name: sessionLaneName(session), kind: KindSession, session: session, cap: 1}
		s.sessions[session] = l
	}
	return l
}

// pool is the pool lane of a sub-agent run or of any other.
func (s *Scheduler) pool(subAgent bool) *lane {
	if subAgent {
		return s.subagents
	}
	return s.global
}

// enqueueLocked queues sl in its lane, reporting whether it started at
// once; the caller holds s.mu.
func (s *Scheduler) enqueueLocked(sl *slot) bool { return sl.l.enqueue(sl, s.clock.Now()) }

// await waits until sl, queued in its lane, runs (started: it did at once)
// or ctx ends; in the latter case sl leaves the queue (or, when it started
// meanwhile, the lane) and the error is ctx's cause.
func (s *Scheduler) await(ctx context.Context, sl *slot, started bool) error {
	if started {
		return nil
	}
	select {
	case <-sl.ready:
		return nil
	case <-ctx.Done():
	}
	s.mu.Lock()
	if !sl.l.dequeue(sl) {
		sl.l.release(sl, s.clock.Now())
	}
	s.dropIdleLocked(sl.l)
	s.mu.Unlock()
	s.changed()
	return context.Cause(ctx)
}

// leave frees t's places and ends its context with cause (nil: a plain
// cancel), unless t has left already.
func (s *Scheduler) leave(t *Task, cause error) {
	s.mu.Lock()
	left := s.leaveLocked(t)
	s.mu.Unlock()
	if left {
		s.ended(t, cause)
	}
}

// leaveLocked frees t's places, the pool lane's first (the reverse order of
// entering), and lets the next waiters in; the caller holds s.mu and then
// calls ended. It reports false when t had left already.
func (s *Scheduler) leaveLocked(t *Task) bool {
	if t.done {
		return false
	}
	t.done = true
	if t.stopTimer != nil {
		t.stopTimer()
	}
	now := s.clock.Now()
	if t.pool != nil {
		t.pool.l.release(t.pool, now)
	}
	t.session.l.release(t.session, now)
	s.dropIdleLocked(t.session.l)
	return true
}

// ended finishes a leave outside the lock: it ends t's context with cause
// and signals the change.
func (s *Scheduler) ended(t *Task, cause error) {
	if t.cancel != nil {
		t.cancel(cause)
	}
	s.changed()
}

// dropIdleLocked forgets an idle session lane; the caller holds s.mu.
func (s *Scheduler) dropIdleLocked(l *lane) {
	if l.kind == KindSession && l.idle() && s.sessions[l.session] == l {
		delete(s.sessions, l.session)
	}
}

// Changes signals that the lanes changed — a task queued, started, left or
// timed out — so that an observer can take a new Snapshot. Signals coalesce
// (the channel holds one), so it is for one observer, which should read the
// snapshot after each receive.
func (s *Scheduler) Changes() <-chan struct{} { return s.changes }

// Watch returns a channel closed at the next change of the lanes (what
// Changes signals), for any number of observers: the runs waiting for a
// lane each watch their place in its queue. An observer that takes the
// channel before reading the Snapshot misses no change.
func (s *Scheduler) Watch() <-chan struct{} {
	s.watchMu.Lock()
	defer s.watchMu.Unlock()
	if s.watch == nil {
		s.watch = make(chan struct{})
	}
	return s.watch
}

func (s *Scheduler) changed() {
	s.watchMu.Lock()
	if s.watch != nil {
		close(s.watch)
		s.watch = nil
	}
	s.watchMu.Unlock()
	select {
	case s.changes <- struct{}{}:
	default:
	}
}
