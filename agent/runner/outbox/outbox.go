// Package outbox writes a front end's output without making the writer wait
// on the reader. The runtime's subscribers are called one after another for
// every event, persistence first: a front end that waited on a reader who
// stopped reading (a client that does not read `steer rpc`'s stdout, `steer
// run` piped into a paused pager) would hold every later event back from
// being saved, while the loop goes on running tools. An Outbox takes the
// bytes at once and writes them out on its own goroutine, in order.
package outbox

import (
	"context"
	"io"
	"sync"
)

// Outbox is an io.Writer that queues what it is given and writes it to the
// underlying writer on its own goroutine, in order. What waits is held in
// memory, without limit, like the runtime's own event queue. After a write
// fails, what is queued is dropped and Write returns that first error. It is
// safe for concurrent use.
type Outbox struct {
	w io.Writer

	mu      sync.Mutex
	queued  []byte
	err     error
	closed  bool
	wake    chan struct{} // one pending signal: there is something to write
	drained chan struct{} // closed when nothing is queued or being written; replaced when something is
	done    chan struct{} // closed when the writing goroutine has returned
}

// New returns an Outbox writing to w, with its goroutine started; Close
// stops it.
func New(w io.Writer) *Outbox {
	o := &Outbox{w: w, wake: make(chan struct{}, 1), drained: make(chan struct{}), done: make(chan struct{})}
	close(o.drained)
	go o.loop()
	return o
}

// Write queues a copy of p and returns at once. Its error is the first
// error of an earlier write, or io.ErrClosedPipe after Close.
func (o *Outbox) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	switch {
	case o.err != nil:
		return 0, o.err
	case o.closed:
		return 0, io.ErrClosedPipe
	}
	if len(o.queued) == 0 {
		select {
		case <-o.drained:
			o.drained = make(chan struct{})
		default: // the goroutine is still writing the last batch
		}
	}
	o.queued = append(o.queued, p...)
	select {
	case o.wake <- struct{}{}:
	default:
	}
	return len(p), nil
}

// Err returns the first error writing to the underlying writer, if any.
func (o *Outbox) Err() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

// Drain waits until everything written so far is written out (or dropped
// after a failure), or until ctx is done, and returns the first write error
// or ctx's error.
func (o *Outbox) Drain(ctx context.Context) error {
	o.mu.Lock()
	drained := o.drained
	o.mu.Unlock()
	select {
	case <-drained:
		return o.Err()
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close drains the outbox (see Drain) and stops its goroutine; what is
// still queued when ctx ends is dropped. Later writes fail.
func (o *Outbox) Close(ctx context.Context) error {
	err := o.Drain(ctx)
	o.mu.Lock()
	o.closed = true
	o.mu.Unlock()
	select {
	case o.wake <- struct{}{}:
	default:
	}
	if err == nil {
		<-o.done
	}
	return err
}

func (o *Outbox) loop() {
	defer close(o.done)
	var batch []byte
	for range o.wake {
		for {
			o.mu.Lock()
			if len(o.queued) == 0 || o.err != nil {
				o.queued = nil
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
			// Swap buffers so that writers append to the other one meanwhile.
			batch, o.queued = o.queued, batch[:0]
			o.mu.Unlock()
			if _, err := o.w.Write(batch); err != nil {
				o.mu.Lock()
				o.err = err
				o.mu.Unlock()
			}
		}
	}
}
