package persistence

import (
	"context"
	"path/filepath"
	"time"
)

// The lock files of the write gate, beside steer.db.
const (
	writeQueueName = dbFileName + ".writers.queue"
	writeGateName  = dbFileName + ".writers.lock"
)

// writeGateWait bounds the wait at the gate. Past it a write goes on without
// the gate and SQLite's own busy handling (bounded too; see write) decides.
const writeGateWait = 2 * time.Second

// writeGatePool is how many idle descriptor pairs the gate keeps.
const writeGatePool = 4

// writeGate is a queue for SQLite's write lock. A write transaction that
// finds the lock taken waits in SQLite's busy handler, which polls after 1,
// 2, 5, 10 … 100 ms: with several busy processes an unlucky writer keeps
// sleeping longer while the others take turns, and single appends stall for
// tenths of a second. Writers instead wait at the gate, an exclusive OS lock
// that the kernel hands on the moment its holder lets go, and begin their
// transaction once through, when SQLite's lock is almost always free.
//
// A second lock, the queue, stops a writer that has just left from barging
// back in ahead of one that was waiting: a writer takes the queue, then the
// gate, and only then lets the queue go, so whoever waits on the gate holds
// the queue and is next.
//
// The gate orders; it does not protect: SQLite's own locking stays the
// guarantee, so a write that cannot use the gate (no descriptor, a holder
// stopped for writeGateWait) simply goes on without it.
type writeGate struct {
	dir  string
	idle chan *gateSlot
}

// gateSlot is one writer's pair of descriptors; each descriptor is its own
// lock owner, so slots exclude each other within a process too.
type gateSlot struct {
	queue, gate *lockFile
}

func newWriteGate(dir string) *writeGate {
	return &writeGate{dir: dir, idle: make(chan *gateSlot, writeGatePool)}
}

// enter waits at the gate and returns the function that leaves it. It never
// fails: when the gate cannot be used it returns at once (or after
// writeGateWait, or when ctx is done) with a leave that does nothing.
func (g *writeGate) enter(ctx context.Context) (leave func()) {
	nothing := func() {}
	if g == nil {
		return nothing
	}
	slot := g.slot()
	if slot == nil {
		return nothing
	}
	leave = func() {
		if slot.gate.unlock() != nil {
			slot.close()
			return
		}
		select {
		case g.idle <- slot:
		default:
			slot.close()
		}
	}
	queued, err := slot.queue.tryLock(true)
	if err != nil {
		slot.close()
		return nothing
	}
	if queued {
		if ok, err := slot.gate.tryLock(true); ok || err != nil {
			if err = firstErr(err, slot.queue.unlock()); err != nil {
				slot.close()
				return nothing
			}
			return leave
		}
	}
	// The waits block a thread in the kernel and cannot be interrupted; they
	// run on their own goroutine so that the writer can give up on them.
	got := make(chan error, 1)
	go func() {
		err := slot.queue.lockWait() // a no-op when held already
		if err == nil {
			err = slot.gate.lockWait()
		}
		if err == nil {
			err = slot.queue.unlock()
		}
		got <- err
	}()
	t := time.NewTimer(writeGateWait)
	defer t.Stop()
	select {
	case err := <-got:
		if err != nil {
			slot.close()
			return nothing
		}
		return leave
	case <-t.C:
	case <-ctx.Done():
	}
	// Given up: whenever the locks come, hand them straight back.
	go func() {
		<-got
		slot.close()
	}()
	return nothing
}

// slot takes an idle slot or opens a new one; nil when the files cannot be
// opened.
func (g *writeGate) slot() *gateSlot {
	select {
	case s := <-g.idle:
		return s
	default:
	}
	q, err := openLockFile(filepath.Join(g.dir, writeQueueName), true)
	if err != nil {
		return nil
	}
	w, err := openLockFile(filepath.Join(g.dir, writeGateName), true)
	if err != nil {
		q.close()
		return nil
	}
	return &gateSlot{queue: q, gate: w}
}

// close closes both descriptors, which drops their locks.
func (s *gateSlot) close() {
	s.queue.close()
	s.gate.close()
}

// close closes the idle slots. A write that gave up on the gate closes its
// own when its wait ends.
func (g *writeGate) close() {
	if g == nil {
		return
	}
	for {
		select {
		case s := <-g.idle:
			s.close()
		default:
			return
		}
	}
}

// firstErr is the first non-nil error.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
