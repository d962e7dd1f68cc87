package runner

import (
	"context"
	"sync"
)

// saver runs the session's writes on one goroutine, in the order they were
// handed over, so that the event path never waits on the database: a slow
// disk or a busy lock delays the save, not the stream on the screen. Writes
// run with the runtime's write context, which Close cancels.
type saver struct {
	mu      sync.Mutex
	queue   []saveJob
	wake    chan struct{} // buffered 1: there is work
	done    chan struct{} // closed when the goroutine has stopped
	handed  uint64        // jobs handed over so far
	saved   uint64        // jobs finished so far
	changed *sync.Cond    // broadcast when saved moves
	closed  bool
}

// saveJob is one write; its error goes to report.
type saveJob struct {
	write  func(ctx context.Context) error
	report func(error)
}

func newSaver() *saver {
	s := &saver{wake: make(chan struct{}, 1), done: make(chan struct{})}
	s.changed = sync.NewCond(&s.mu)
	return s
}

// start serves jobs with ctx until stop.
func (s *saver) start(ctx context.Context) { go s.serve(ctx) }

// add hands a job over; it never blocks. After stop it is dropped and
// reported as ctx's error.
func (s *saver) add(job saveJob) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		job.report(context.Canceled)
		return
	}
	s.queue = append(s.queue, job)
	s.handed++
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *saver) serve(ctx context.Context) {
	defer close(s.done)
	for {
		s.mu.Lock()
		jobs := s.queue
		s.queue = nil
		closed := s.closed
		s.mu.Unlock()
		for _, job := range jobs {
			job.report(job.write(ctx))
			s.mu.Lock()
			s.saved++
			s.changed.Broadcast()
			s.mu.Unlock()
		}
		if len(jobs) > 0 {
			continue
		}
		if closed {
			return
		}
		<-s.wake
	}
}

// flush waits until every job handed over before the call has finished, or
// for ctx.
func (s *saver) flush(ctx context.Context) error {
	s.mu.Lock()
	target := s.handed
	s.mu.Unlock()
	stop := context.AfterFunc(ctx, func() {
		s.mu.Lock()
		s.changed.Broadcast()
		s.mu.Unlock()
	})
	defer stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.saved < target {
		if err := ctx.Err(); err != nil {
			return err
		}
		s.changed.Wait()
	}
	return nil
}

// stop lets the goroutine finish the jobs already handed over and return;
// stop does not wait (see flush and done).
func (s *saver) stop() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}
