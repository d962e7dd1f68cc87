package lanes

import (
	"context"
	"errors"
	"fmt"
)

// ErrReentrant is what a queued entry from inside a lane it would wait for
// wraps: the entry would wait for the task it is part of.
var ErrReentrant = errors.New("queued entry from inside the lane it would wait for")

// ErrNotInLane is what Direct returns for a caller outside the lane.
var ErrNotInLane = errors.New("not inside the lane")

// ReentrantError refuses a queued entry (Scheduler.Enter) made with the
// context of a task that holds a lane the entry would have to wait for;
// waiting would deadlock, so the entry fails at once. The caller wanted the
// direct entry point.
type ReentrantError struct {
	// Lane is the lane both hold, e.g. "session:s1" or "global".
	Lane string
	// Holder is the id of the task that holds it.
	Holder string
}

// Error names the lane and what to do instead.
func (e *ReentrantError) Error() string {
	return fmt.Sprintf("lanes: %s: task %s holds lane %s already; use the direct entry point from inside a lane",
		ErrReentrant, e.Holder, e.Lane)
}

// Unwrap makes errors.Is(err, ErrReentrant) true.
func (e *ReentrantError) Unwrap() error { return ErrReentrant }

// markKey keys a task's mark in its context.
type markKey struct{}

// mark says that a context belongs to task t of scheduler s; outer is the
// mark of the context t was entered with, so tasks entered from inside
// other tasks are all found.
type mark struct {
	s     *Scheduler
	t     *Task
	outer *mark
}

// marked derives the task's context from parent.
func marked(parent context.Context, s *Scheduler, t *Task) context.Context {
	outer, _ := parent.Value(markKey{}).(*mark)
	return context.WithValue(parent, markKey{}, &mark{s: s, t: t, outer: outer})
}

// Mark returns ctx marked as inside t's lanes, as t's own Context is: while
// t holds them, a queued entry made with ctx, or with a context derived
// from it, that needs one of them is refused at once with a
// *ReentrantError, and Scheduler.Direct lets it in. It is for the contexts
// a run does its work under that are not derived from Task.Context: those
// made before the run entered its lanes, such as the context of the request
// during which it entered them. The mark is a
// value only: ctx is not cancelled when t leaves, and once t has left it
// holds nothing.
func (t *Task) Mark(ctx context.Context) context.Context { return marked(ctx, t.s, t) }

// holderLocked returns the live task of s in ctx's marks that holds a lane
// req would need, and that lane's name; the caller holds s.mu. Tasks that
// have left (or timed out) hold nothing: a context that outlives its task
// may enter again.
func (s *Scheduler) holderLocked(ctx context.Context, req Request) (*Task, string) {
	m, _ := ctx.Value(markKey{}).(*mark)
	for ; m != nil; m = m.outer {
		if m.s != s || m.t.done {
			continue
		}
		if m.t.req.Session == req.Session {
			return m.t, sessionLaneName(req.Session)
		}
		if m.t.req.SubAgent == req.SubAgent {
			return m.t, s.pool(req.SubAgent).name
		}
	}
	return nil, ""
}

// Direct checks that ctx belongs to a task inside session's lane — what a
// direct entry point (one that does not queue) requires of its caller. It
// returns nil inside and an error wrapping ErrNotInLane outside: a direct
// call from outside would race the session's running run.
func (s *Scheduler) Direct(ctx context.Context, session string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, _ := ctx.Value(markKey{}).(*mark)
	for ; m != nil; m = m.outer {
		if m.s == s && !m.t.done && m.t.req.Session == session {
			return nil
		}
	}
	return fmt.Errorf("lanes: direct entry for session %s: %w", session, ErrNotInLane)
}
