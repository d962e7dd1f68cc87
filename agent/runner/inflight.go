package runner

import (
	"context"
	"sync"
)

// inflight counts work in the background that a closing runtime waits for.
// Unlike a sync.WaitGroup, work may start while someone waits: a run that
// ends during Close still records its successes, and Close waits for them
// too.
type inflight struct {
	mu   sync.Mutex
	n    int
	zero chan struct{} // closed when n falls to 0; nil while n is 0
}

// add counts one more piece of work; done ends one.
func (f *inflight) add() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n == 0 {
		f.zero = make(chan struct{})
	}
	f.n++
}

func (f *inflight) done() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n--
	if f.n == 0 {
		close(f.zero)
		f.zero = nil
	}
}

// wait waits until no work is counted, or ctx ends.
func (f *inflight) wait(ctx context.Context) {
	for {
		f.mu.Lock()
		zero := f.zero
		f.mu.Unlock()
		if zero == nil {
			return
		}
		select {
		case <-zero:
		case <-ctx.Done():
			return
		}
	}
}
