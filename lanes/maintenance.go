package lanes

import (
	"context"
	"sync"
)

// maintenance counts a session's deferred maintenance under way; idle
// closes when the count drops to zero. Guarded by the scheduler's mutex.
type maintenance struct {
	n    int
	idle chan struct{}
}

// Maintain records that deferred maintenance of session has begun — a
// background compaction rewrite, say — and returns the function that
// records its end; calling that more than once counts once. Runs of the
// session that reach the end of its lane in between wait for it before
// they take a pool slot, so that they read what it wrote; a run already
// past that point is not affected, so a run that defers maintenance calls
// Maintain before it leaves its lanes. The maintenance itself must not
// queue for the session's lane (Enter): the run waiting for it holds that
// lane.
func (s *Scheduler) Maintain(session string) (done func()) {
	s.mu.Lock()
	m := s.maint[session]
	if m == nil {
		m = &maintenance{idle: make(chan struct{})}
		s.maint[session] = m
	}
	m.n++
	s.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			if m.n--; m.n == 0 {
				close(m.idle)
				delete(s.maint, session)
			}
		})
	}
}

// waitMaintenance waits until session has no deferred maintenance under
// way, or ctx ends (its cause is returned).
func (s *Scheduler) waitMaintenance(ctx context.Context, session string) error {
	for {
		s.mu.Lock()
		m := s.maint[session]
		s.mu.Unlock()
		if m == nil {
			return nil
		}
		select {
		case <-m.idle:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
}
