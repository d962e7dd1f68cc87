package lanes

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Task is a run admitted to its lanes. Its methods are safe for concurrent
// use.
type Task struct {
	s        *Scheduler
	req      Request
	priority Priority
	timeout  time.Duration // the lane timeout; 0 for none

	session, pool *slot // pool is nil until the task reaches its pool lane

	ctx    context.Context
	cancel context.CancelCauseFunc

	progress atomic.Int64 // Unix nanoseconds of the last progress report

	// Guarded by s.mu.
	done      bool        // left or timed out: holds no lane
	stopTimer func() bool // the armed lane timeout
	paused    int         // Pause calls not yet resumed
}

// Context is the context to run the task under: the one it entered with,
// marked as inside its lanes (see Scheduler.Direct and ErrReentrant), and
// cancelled when the task leaves or its lane timeout fires — then with a
// *TimeoutError as its cause (context.Cause).
func (t *Task) Context() context.Context { return t.ctx }

// Progress renews the lane timeout: the run is alive. It is cheap enough to
// call on every event of the run.
func (t *Task) Progress() { t.progress.Store(t.s.clock.Now().UnixNano()) }

// Pause stops the lane timeout while the run waits on purpose — for the
// user's approval of a tool call, say, which pauses the run's own timeout
// too — and returns the function that resumes it, which counts as progress.
// Pauses nest; resuming more than once counts once.
func (t *Task) Pause() (resume func()) {
	t.s.mu.Lock()
	t.paused++
	t.s.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			t.Progress()
			t.s.mu.Lock()
			t.paused--
			t.s.mu.Unlock()
		})
	}
}

// Leave frees the task's lanes, lets the next waiters in and cancels its
// context. Calling it again, or after the lane timeout fired, does nothing.
func (t *Task) Leave() { t.s.leave(t, nil) }

// begin gives the admitted task its context and arms its lane timeout.
func (t *Task) begin(parent context.Context) {
	t.ctx, t.cancel = context.WithCancelCause(marked(parent, t.s, t))
	t.Progress()
	if t.timeout > 0 {
		t.s.mu.Lock()
		t.stopTimer = t.s.clock.AfterFunc(t.timeout, t.expire)
		t.s.mu.Unlock()
	}
}

// expire runs when the lane timeout may have passed. Progress only records
// a time, so the timer goes off at the end of the window that started with
// the task or the last re-arm; if progress came since, it is re-armed for
// the rest of the window that started with the last progress, and while
// the task is paused, for a whole window.
func (t *Task) expire() {
	s := t.s
	silent := s.clock.Now().Sub(time.Unix(0, t.progress.Load()))
	s.mu.Lock()
	if t.done {
		s.mu.Unlock()
		return
	}
	if t.paused > 0 {
		silent = 0
	}
	if silent < t.timeout {
		t.stopTimer = s.clock.AfterFunc(t.timeout-silent, t.expire)
		s.mu.Unlock()
		return
	}
	s.leaveLocked(t)
	s.mu.Unlock()
	s.ended(t, &TimeoutError{ID: t.req.ID, Session: t.req.Session, Timeout: t.timeout})
}
