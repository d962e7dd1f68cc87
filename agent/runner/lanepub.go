package runner

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/steer-tui/steer/lanes"
	"github.com/steer-tui/steer/persistence"
)

// lanePublishEvery bounds how often the lanes' snapshot is written to the
// shared database, however busy they are.
const lanePublishEvery = 250 * time.Millisecond

// lanePublisher keeps this process's lanes in the shared database, so that
// `steer inspect lanes` elsewhere sees them. It starts with the first run
// of any runtime sharing the scheduler (a steer that never runs leaves no
// trace), and stops with its runtime's Close. Only the runtime that owns
// the scheduler publishes it; the others reach it through lanesOwner. It
// calls only the scheduler, the store and the write side's givenUp.
type lanePublisher struct {
	store   *persistence.Store // nil: nothing is published
	sched   *lanes.Scheduler
	ctx     context.Context // bounds every publication (the writes' ctx)
	givenUp func(error) error
	log     *slog.Logger

	mu   sync.Mutex
	pub  *persistence.LanePublisher
	quit chan struct{} // closed to stop the goroutine; non-nil once started (or failed to)
	done chan struct{} // closed when the goroutine has returned
}

func newLanePublisher(store *persistence.Store, sched *lanes.Scheduler, w *writes, log *slog.Logger) *lanePublisher {
	return &lanePublisher{store: store, sched: sched, ctx: w.ctx, givenUp: w.givenUp, log: log}
}

// start starts publishing, once; without a store it does nothing.
func (p *lanePublisher) start() {
	if p.store == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pub != nil || p.quit != nil {
		return
	}
	pub, err := p.store.LanePublisher()
	if err != nil {
		p.log.Warn("the lanes will not be visible to other steer processes", "error", err)
		p.quit = make(chan struct{}) // not again
		return
	}
	p.pub, p.quit, p.done = pub, make(chan struct{}), make(chan struct{})
	go p.run(pub, p.quit, p.done)
}

// run publishes the scheduler's snapshot whenever it changes, at most
// every lanePublishEvery, until quit is closed.
func (p *lanePublisher) run(pub *persistence.LanePublisher, quit <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	for {
		select {
		case <-quit:
			return
		case <-p.sched.Changes():
		}
		if err := p.givenUp(pub.Publish(p.ctx, p.sched.Snapshot())); err != nil {
			p.log.Warn("publishing the lanes failed", "error", err)
		}
		select {
		case <-quit:
			return
		case <-time.After(lanePublishEvery):
		}
	}
}

// publishNow writes what this process runs now, not as last published,
// when the publisher runs.
func (p *lanePublisher) publishNow(ctx context.Context) error {
	p.mu.Lock()
	pub := p.pub
	p.mu.Unlock()
	if pub == nil {
		return nil
	}
	return pub.Publish(ctx, p.sched.Snapshot())
}

// stop stops publishing and takes this process's rows out of the shared
// database, giving up on the database when ctx ends (the rows of a
// publisher whose lock is gone are dropped by the next listing).
func (p *lanePublisher) stop(ctx context.Context) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pub == nil {
		return
	}
	if p.quit != nil {
		close(p.quit)
		<-p.done
		p.quit = nil
	}
	if err := p.givenUp(p.pub.Close(ctx)); err != nil {
		p.log.Warn("removing the lanes from the database failed", "error", err)
	}
	p.pub = nil
}
