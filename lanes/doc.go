// Package lanes serialises agent runs: one run per session at a time, and a
// bounded number of runs across all sessions (SPEC §4).
//
// # Two levels
//
// Every run enters its session's lane first (capacity one, so a transcript
// has one writer) and then a pool lane: the global lane, whose capacity is
// agent.maxConcurrent (DefaultMaxConcurrent), or, for sub-agent runs, the
// sub-agent lane (DefaultMaxSubAgents). Session first, then pool, on
// purpose: a run that waits for its own session — for the run before it or
// for the session's deferred maintenance — holds no pool slot, so another
// session can start meanwhile. Between the two levels a run waits for the
// session's deferred maintenance (Scheduler.Maintain), so that it reads what
// that maintenance wrote.
//
// # Order
//
// Each lane dequeues by priority and, within a priority, first come first
// served. The priority follows from what triggered the run (PriorityOf):
// user and manual runs are foreground, cron, heartbeat, memory and overflow
// runs background, anything else normal.
//
// # The lane timeout
//
// A run has its own timeout; the lane's is the backstop behind it, later by
// TimeoutGrace so that the run's own timeout always gets to finish its
// clean-up first (Timeout). It measures silence, not age: each
// Task.Progress renews it, and Task.Pause holds it while the run waits on
// purpose (for an approval, which pauses the run's own timeout too). It
// starts when the task is admitted: waiting in a queue is not silence.
// When it fires, the task's context is cancelled with a *TimeoutError as its
// cause and the task's slots are freed, so a run that ignores its context
// cannot hold the lanes for ever; writer fencing (persistence) keeps such a
// run from writing over the next one.
//
// # Entering from inside
//
// Scheduler.Enter is the queued entry point, for callers outside a lane.
// The context of an admitted task is marked with the lanes it holds, and a
// queued entry whose context holds a lane it would have to wait for is
// refused at once with a *ReentrantError (ErrReentrant) instead of waiting
// for itself. A context the run made before it entered (the request during
// which it did, say) is not derived from the task's; Task.Mark marks it
// too. Work that already runs inside a session's lane — compacting
// the session of the running run, say — takes the direct path, which does
// not queue; Scheduler.Direct checks that the caller really is inside.
//
// # Observing
//
// Scheduler.Snapshot lists each busy lane with what runs and what waits,
// since when and with which priority; Scheduler.Changes signals that it
// changed.
package lanes
