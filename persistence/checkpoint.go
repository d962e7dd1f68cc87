package persistence

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"sync/atomic"
)

// checkpointEvery is how many of this store's committed writes pass between
// two background checkpoints. SQLite's own automatic checkpoint runs inside
// the commit that finds the WAL past its limit and costs that append
// milliseconds (it copies the pages and syncs two files); checkpointing on
// another connection keeps the append path free of it.
const checkpointEvery = 32

// walResetFrames is the WAL length (in frames) past which the checkpointer
// makes sure the WAL starts over, and walAutocheckpointPages SQLite's own
// automatic checkpoint, a fallback far above it.
//
// A checkpoint copies the WAL into the database, but the WAL only starts over
// (instead of growing) when a writer begins after a checkpoint has copied
// every frame. With several processes writing, some process nearly always
// commits while a checkpoint runs, so without help the WAL would grow without
// end — and past SQLite's default limit of 1,000 pages every commit would run
// a checkpoint of its own. So once the WAL is longer than walResetFrames the
// checkpointer runs one more (passive) checkpoint inside the write gate, where
// no steer writer can commit: it copies the few frames committed meanwhile,
// and the next writer starts the WAL over.
const (
	walResetFrames         = 1000
	walAutocheckpointPages = 16 * walResetFrames
)

// checkpointer runs passive WAL checkpoints on its own connection and
// goroutine, kicked by the writer.
type checkpointer struct {
	db   *sql.DB
	gate *writeGate
	kick chan struct{} // never closed, so a late kick cannot panic
	// ctx ends with stop, so that closing never waits out a checkpoint's
	// wait at the gate or for a lock.
	ctx     context.Context
	cancel  context.CancelFunc
	done    chan struct{}
	commits atomic.Int64
}

// startCheckpointer opens the checkpoint connection lazily (sql.Open does not
// connect) and starts its goroutine; stop ends both.
func startCheckpointer(path string, gate *writeGate, log *slog.Logger) (*checkpointer, error) {
	db, err := openSQL(writerDSN(path), log, connCheckpoint)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	ctx, cancel := context.WithCancel(context.Background())
	c := &checkpointer{db: db, gate: gate, kick: make(chan struct{}, 1), ctx: ctx, cancel: cancel, done: make(chan struct{})}
	go c.run()
	return c, nil
}

// run checkpoints once per kick. A checkpoint that cannot finish (a reader
// still uses the frames, another process is checkpointing) is simply retried
// at the next kick; errors are ignored for the same reason.
func (c *checkpointer) run() {
	defer close(c.done)
	ctx := c.ctx
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.kick:
			if frames, err := c.checkpoint(ctx); err == nil && frames > walResetFrames {
				leave := c.gate.enter(ctx)
				_, _ = c.checkpoint(ctx)
				leave()
			}
		}
	}
}

// checkpoint runs one passive checkpoint and returns the WAL's length in
// frames.
func (c *checkpointer) checkpoint(ctx context.Context) (int, error) {
	var busy, frames, copied int
	err := c.db.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &frames, &copied)
	return frames, err
}

// committed counts one committed write and kicks a checkpoint every
// checkpointEvery of them, without ever blocking the writer.
func (c *checkpointer) committed() {
	if c == nil {
		return
	}
	if c.commits.Add(1)%checkpointEvery != 0 {
		return
	}
	select {
	case c.kick <- struct{}{}:
	default: // one is pending already
	}
}

// stop ends the goroutine and closes the connection.
func (c *checkpointer) stop() error {
	if c == nil {
		return nil
	}
	c.cancel()
	<-c.done
	return c.db.Close()
}
