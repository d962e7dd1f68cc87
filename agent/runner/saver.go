package runner

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// saver runs the session's writes on one goroutine, in the order they were
// handed over, so that the event path never waits on the database: a slow
// disk or a busy lock delays the save, not the stream on the screen. Writes
// run with the runtime's write context, which Close cancels.
//
// A write that fails for a reason that may pass (a full disk, an I/O error,
// a database another process kept locked) is kept at the head of the queue,
// with every write behind it, and tried again when the next write is handed
// over and after a backoff (retryDelay): a later message is never written
// before an earlier one, and nothing is lost once saving works again. A
// retry runs the job's again, which never writes twice what the failed
// attempt may have committed after all. A write that cannot succeed later
// (see keepForRetry) is dropped and reported. It calls only its jobs (their
// writes and reports) and holding; writes owns it.
type saver struct {
	mu sync.Mutex
	// queue holds the jobs handed over and neither written nor dropped,
	// oldest first.
	queue []saveJob
	// failures counts the failed attempts of queue[0] in a row; lastErr is
	// the latest one's error.
	failures int
	lastErr  error
	// held is set from a failure kept until the queue runs empty again.
	held bool
	// lost labels the jobs dropped after a failure.
	lost    []saveLabel
	wake    chan struct{} // buffered 1: there is work, or stop was called
	done    chan struct{} // closed when the goroutine has stopped
	handed  uint64        // jobs handed over so far
	settled uint64        // jobs, in order, written, dropped or kept behind a failed attempt made since they came
	changed *sync.Cond    // broadcast when settled moves
	closed  bool
	// holding is told err when writes start being kept, and nil once the
	// queue has run empty again.
	holding func(err error)
	// after is the retry timer; tests replace it (before a failure).
	after func(time.Duration) <-chan time.Time
	// attempt runs one write; tests wrap it to fail as a full disk does.
	attempt func(ctx context.Context, write func(context.Context) error) error
}

// saveJob is one write. Its outcome goes to report: nil once it is written,
// its first error when an attempt fails (it is then kept and retried), and
// the error it is dropped with.
type saveJob struct {
	write func(ctx context.Context) error
	// again is the write of a retry, for a write that is not safe to repeat
	// (an append): it must write nothing when the failed attempt committed.
	// Nil: write is run again.
	again  func(ctx context.Context) error
	report func(error)
	label  saveLabel
}

// saveLabel says what a job saves, for the quit's account of what was not
// saved; the zero value is "a record" of the runtime's current session.
type saveLabel struct {
	session string
	what    saveKind
}

// The retry backoff: the first retry after retryFirst, doubling up to
// retryMost.
const (
	retryFirst = time.Second
	retryMost  = 30 * time.Second
)

// retryDelay is how long the head waits after its nth failure in a row.
func retryDelay(failures int) time.Duration {
	d := retryFirst
	for i := 1; i < failures && d < retryMost; i++ {
		d *= 2
	}
	return min(d, retryMost)
}

func newSaver() *saver {
	s := &saver{wake: make(chan struct{}, 1), done: make(chan struct{}), holding: func(error) {},
		after:   time.After,
		attempt: func(ctx context.Context, write func(context.Context) error) error { return write(ctx) }}
	s.changed = sync.NewCond(&s.mu)
	return s
}

// start serves jobs with ctx until stop; holding hears when writes are kept
// and when they are all written.
func (s *saver) start(ctx context.Context, holding func(err error)) {
	s.holding = holding
	go s.serve(ctx)
}

// add hands a job over; it never blocks. After stop it is dropped and
// reported as ctx's error. While writes are kept, it sets off a retry.
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
	s.poke()
}

func (s *saver) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *saver) serve(ctx context.Context) {
	defer close(s.done)
	for {
		s.mu.Lock()
		if len(s.queue) == 0 {
			closed := s.closed
			s.mu.Unlock()
			if closed {
				return
			}
			<-s.wake
			continue
		}
		job, retry, closed, attempt := s.queue[0], s.failures > 0, s.closed, s.attempt
		s.mu.Unlock()
		select { // this attempt serves the signals so far; a later one calls for a retry
		case <-s.wake:
		default:
		}
		write := job.write
		if retry && job.again != nil {
			write = job.again
		}
		err := attempt(ctx, write)
		switch {
		case err == nil:
			s.written(job)
		case ctx.Err() != nil || !keepForRetry(err):
			s.dropped(job, err)
		default:
			if !s.kept(ctx, job, err, closed) {
				return
			}
		}
	}
}

// written takes the head off the queue; the last of the writes kept ends
// the hold. Both are told before a flush can see the head settled: a run's
// end that flushes then knows that saving works again.
func (s *saver) written(job saveJob) {
	s.mu.Lock()
	recovered := s.held && len(s.queue) == 1 // the head is the last one kept
	if recovered {
		s.held = false
	}
	s.mu.Unlock()
	job.report(nil)
	if recovered {
		s.holding(nil)
	}
	s.mu.Lock()
	s.pop()
	s.mu.Unlock()
}

// dropped takes the head off the queue after a failure it cannot retry; a
// hold lasts until a later write is written.
func (s *saver) dropped(job saveJob, err error) {
	s.mu.Lock()
	s.lost = append(s.lost, job.label)
	if s.lastErr == nil || !errors.Is(err, context.Canceled) { // why it was kept says more than the quit
		s.lastErr = err
	}
	s.mu.Unlock()
	job.report(err) // told before a flush can see it settled
	s.mu.Lock()
	s.pop()
	s.mu.Unlock()
}

// pop removes the head and settles it; s.mu is held.
func (s *saver) pop() {
	s.queue[0] = saveJob{}
	s.queue = s.queue[1:]
	s.failures = 0
	if done := s.handed - uint64(len(s.queue)); s.settled < done {
		s.settled = done
	}
	s.changed.Broadcast()
}

// kept keeps the head after a failure that may pass and waits for the next
// retry: a new job, the backoff, stop or ctx. It returns false when the
// saver is to stop with the queue unsaved (stop came before the attempt).
func (s *saver) kept(ctx context.Context, job saveJob, err error, closed bool) bool {
	s.mu.Lock()
	s.failures++
	first := s.failures == 1
	hold := !s.held
	s.held = true
	s.lastErr = err
	s.mu.Unlock()
	// Told before a flush can see the queue settled: a run's end that
	// flushes then knows of the failure.
	if first {
		job.report(err)
	}
	if hold {
		s.holding(err)
	}
	s.mu.Lock()
	s.settled = s.handed // all of the queue waits behind this failure
	s.changed.Broadcast()
	delay, after := retryDelay(s.failures), s.after
	s.mu.Unlock()
	if closed {
		return false
	}
	select {
	case <-s.wake:
	case <-after(delay):
	case <-ctx.Done():
	}
	return true
}

// flush waits until every job handed over before the call is written,
// dropped or kept behind a failed attempt (see State().PersistError), or
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
	for s.settled < target {
		if err := ctx.Err(); err != nil {
			return err
		}
		s.changed.Wait()
	}
	return nil
}

// stop makes the goroutine return once the queue is written, or after one
// more attempt at the head fails (see unsaved); stop does not wait (see
// flush and done).
func (s *saver) stop() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.poke()
}

// unsaved labels what was never written, dropped jobs first, and the last
// error met; call it once the goroutine is done.
func (s *saver) unsaved() ([]saveLabel, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := append([]saveLabel(nil), s.lost...)
	for _, j := range s.queue {
		out = append(out, j.label)
	}
	return out, s.lastErr
}

// holdingWrites is an error while writes are kept for a retry: they belong
// to the session being written, which may not be released to another
// process (nor its claim taken back by the retry) until they are written.
// current names the session of writes without one.
func (s *saver) holdingWrites(current string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.held || len(s.queue) == 0 {
		return nil
	}
	labels := make([]saveLabel, len(s.queue))
	for i, j := range s.queue {
		labels[i] = j.label
	}
	return fmt.Errorf("the session cannot be left yet: %w; free some space, or wait for the retry", unsavedAccount(labels, current, s.lastErr))
}
