package runner

import (
	"context"
	"sync"

	"github.com/steer-tui/steer/agent"
)

// engineFeed runs engine notifications one at a time, in order, on one
// goroutine, so that a slow engine never holds up the event path.
type engineFeed struct {
	// ctx is cancelled by stop: a long job (a background compaction) ends
	// with the feed instead of holding Close.
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	jobs    []feedJob
	idle    chan struct{} // closed while no job is queued or running
	wake    chan struct{}
	stopped bool
	done    chan struct{}
}

// feedJob is one job of the feed; drop (optional) is called instead of run
// when the feed stops before the job's turn, for a job that holds something
// only it releases.
type feedJob struct {
	run, drop func()
}

// newEngineFeed starts a feed whose context ends with parent or at stop.
func newEngineFeed(parent context.Context) *engineFeed {
	ctx, cancel := context.WithCancel(parent)
	f := &engineFeed{ctx: ctx, cancel: cancel, idle: make(chan struct{}), wake: make(chan struct{}, 1), done: make(chan struct{})}
	close(f.idle)
	go f.run()
	return f
}

func (f *engineFeed) add(job func()) { f.addJob(feedJob{run: job}) }

// addJob queues job; after stop it is dropped at once.
func (f *engineFeed) addJob(job feedJob) {
	f.mu.Lock()
	if f.stopped {
		f.mu.Unlock()
		job.dropped()
		return
	}
	f.jobs = append(f.jobs, job)
	select {
	case <-f.idle:
		f.idle = make(chan struct{})
	default: // already busy
	}
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

func (j feedJob) dropped() {
	if j.drop != nil {
		j.drop()
	}
}

func (f *engineFeed) run() {
	defer close(f.done)
	for range f.wake {
		for {
			f.mu.Lock()
			if len(f.jobs) == 0 {
				select {
				case <-f.idle:
				default:
					close(f.idle)
				}
				stopped := f.stopped
				f.mu.Unlock()
				if stopped {
					return
				}
				break
			}
			job := f.jobs[0]
			f.jobs = f.jobs[1:]
			f.mu.Unlock()
			job.run()
		}
	}
}

// flush waits (until ctx ends) until no job is queued or running, so also
// for jobs added while it waits.
func (f *engineFeed) flush(ctx context.Context) error {
	f.mu.Lock()
	idle := f.idle
	f.mu.Unlock()
	return agent.WaitClosed(ctx, idle)
}

// wait waits (until ctx ends) for the goroutine to end after stop.
func (f *engineFeed) wait(ctx context.Context) {
	select {
	case <-f.done:
	case <-ctx.Done():
	}
}

// stop drops what is not yet done, cancels the feed's context and ends the
// goroutine.
func (f *engineFeed) stop() {
	f.mu.Lock()
	dropped := f.jobs
	f.stopped, f.jobs = true, nil
	f.mu.Unlock()
	f.cancel()
	for _, j := range dropped {
		j.dropped()
	}
	select {
	case f.wake <- struct{}{}:
	default:
	}
}
