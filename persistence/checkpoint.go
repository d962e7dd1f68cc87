package persistence

import (
	"context"
	"database/sql"
	"fmt"
	"sync/atomic"
)

// checkpointEvery is how many committed writes pass between two background
// checkpoints. SQLite's own automatic checkpoint runs inside the commit that
// takes the WAL past 1,000 pages and costs that append milliseconds (it
// copies the pages and syncs the file); checkpointing well before that, on
// another connection, keeps the append path free of it. The automatic
// checkpoint stays on as the fallback.
const checkpointEvery = 32

// checkpointer runs passive WAL checkpoints on its own connection and
// goroutine, kicked by the writer.
type checkpointer struct {
	db      *sql.DB
	kick    chan struct{} // never closed, so a late kick cannot panic
	quit    chan struct{}
	done    chan struct{}
	commits atomic.Int64
}

// startCheckpointer opens the checkpoint connection lazily (sql.Open does not
// connect) and starts its goroutine; stop ends both.
func startCheckpointer(path string) (*checkpointer, error) {
	db, err := sql.Open(driverName, writerDSN(path))
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	c := &checkpointer{db: db, kick: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c, nil
}

// run checkpoints once per kick. A checkpoint that cannot finish (a reader
// still uses the frames) is simply retried at the next kick; errors are
// ignored for the same reason.
func (c *checkpointer) run() {
	defer close(c.done)
	for {
		select {
		case <-c.quit:
			return
		case <-c.kick:
			_, _ = c.db.ExecContext(context.Background(), "PRAGMA wal_checkpoint(PASSIVE)")
		}
	}
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
	close(c.quit)
	<-c.done
	return c.db.Close()
}
