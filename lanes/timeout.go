package lanes

import (
	"fmt"
	"time"
)

// TimeoutGrace is how much later than the run's own timeout the lane's
// fires (seed): the lane is the backstop and must leave the run's timeout
// time to clean up.
const TimeoutGrace = 30 * time.Second

// Timeout is the lane timeout of a run whose own timeout is run: run plus
// TimeoutGrace, or 0 — none — when the run's is 0 (unlimited).
func Timeout(run time.Duration) time.Duration {
	if run <= 0 {
		return 0
	}
	return run + TimeoutGrace
}

// TimeoutError is the cause a task's context is cancelled with when its
// lane timeout fires: it reported no progress for Timeout.
type TimeoutError struct {
	ID      string
	Session string
	// Timeout is the lane timeout: the run's timeout plus TimeoutGrace.
	Timeout time.Duration
}

// Error says which run went silent for how long.
func (e *TimeoutError) Error() string {
	return fmt.Sprintf("lanes: run %s of session %s made no progress for %s (the run timeout plus %s grace); the lane cancelled it",
		e.ID, e.Session, e.Timeout, TimeoutGrace)
}
