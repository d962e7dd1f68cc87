// Package outbox writes a front end's output without making the writer wait
// on the reader. The runtime's subscribers are called one after another for
// every event, persistence first: a front end that waited on a reader who
// stopped reading (a client that does not read `steer rpc`'s stdout, `steer
// run` piped into a paused pager) would hold every later event back from
// being saved, while the loop goes on running tools. An Outbox takes the
// bytes at once and writes them out on its own goroutine, in the order they
// came, to one writer or several (stdout and stderr, which then keep their
// interleaving).
package outbox

import (
	"context"
	"io"
	"sync"
)

// Outbox queues what its targets are given and writes it out on its own
// goroutine, in order. What waits is held in memory, without limit, like the
// runtime's own event queue. It is safe for concurrent use.
type Outbox struct {
	mu      sync.Mutex
	queued  []chunk
	closed  bool
	wake    chan struct{} // one pending signal: there is something to write
	drained chan struct{} // closed while nothing is queued or being written
	done    chan struct{} // closed when the writing goroutine has returned
}

// chunk is bytes for one target; consecutive writes to a target share one.
type chunk struct {
	to *Target
	b  []byte
}

// Target is an io.Writer whose writes go out through the Outbox to the
// underlying writer. After a write to it fails, what is queued for it is
// dropped and Write returns that first error; the other targets go on.
type Target struct {
	o   *Outbox
	w   io.Writer
	err error // guarded by o.mu
}

// New returns an Outbox with its goroutine started; Close stops it.
func New() *Outbox {
	o := &Outbox{wake: make(chan struct{}, 1), drained: make(chan struct{}), done: make(chan struct{})}
	close(o.drained)
	go o.loop()
	return o
}

// To returns a target writing to w through o.
func (o *Outbox) To(w io.Writer) *Target { return &Target{o: o, w: w} }

// Write queues a copy of p and returns at once. Its error is the first
// error of an earlier write to this target, or io.ErrClosedPipe after the
// Outbox is closed.
func (t *Target) Write(p []byte) (int, error) {
	o := t.o
	o.mu.Lock()
	defer o.mu.Unlock()
	switch {
	case t.err != nil:
		return 0, t.err
	case o.closed:
		return 0, io.ErrClosedPipe
	}
	select {
	case <-o.drained:
		o.drained = make(chan struct{})
	default: // already waiting on something
	}
	if n := len(o.queued); n > 0 && o.queued[n-1].to == t {
		o.queued[n-1].b = append(o.queued[n-1].b, p...)
	} else {
		o.queued = append(o.queued, chunk{to: t, b: append([]byte(nil), p...)})
	}
	select {
	case o.wake <- struct{}{}:
	default:
	}
	return len(p), nil
}

// Err returns the first error writing to the target's writer, if any.
func (t *Target) Err() error {
	t.o.mu.Lock()
	defer t.o.mu.Unlock()
	return t.err
}

// Drain waits until everything queued so far is written out (or dropped
// after a failure), or until ctx is done, and returns ctx's error if it
// ended first.
func (o *Outbox) Drain(ctx context.Context) error {
	o.mu.Lock()
	drained := o.drained
	o.mu.Unlock()
	select {
	case <-drained:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close stops taking writes, waits until what was queued is written out
// (or dropped after a failure) and stops the goroutine; when ctx ends first,
// what is still queued is dropped and Close returns ctx's error without
// waiting for a write in progress.
func (o *Outbox) Close(ctx context.Context) error {
	o.mu.Lock()
	o.closed = true
	o.mu.Unlock()
	select {
	case o.wake <- struct{}{}:
	default:
	}
	select {
	case <-o.done:
		return nil
	case <-ctx.Done():
		o.mu.Lock()
		o.queued = nil
		o.mu.Unlock()
		return ctx.Err()
	}
}

func (o *Outbox) loop() {
	defer close(o.done)
	var batch []chunk
	for range o.wake {
		for {
			o.mu.Lock()
			if len(o.queued) == 0 {
				select {
				case <-o.drained:
				default:
					close(o.drained)
				}
				closed := o.closed
				o.mu.Unlock()
				if closed {
					return
				}
				break
			}
			batch, o.queued = o.queued, batch[:0]
			o.mu.Unlock()
			for i, c := range batch {
				o.write(c)
				batch[i] = chunk{} // let the bytes go
			}
		}
	}
}

// write writes one chunk unless its target has failed already.
func (o *Outbox) write(c chunk) {
	o.mu.Lock()
	failed := c.to.err != nil
	o.mu.Unlock()
	if failed {
		return
	}
	if _, err := c.to.w.Write(c.b); err != nil {
		o.mu.Lock()
		c.to.err = err
		o.mu.Unlock()
	}
}
