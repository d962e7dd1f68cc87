package persistence

import (
	"context"
	"database/sql"
	"time"
)

// The retry budget of a write that meets SQLITE_BUSY or SQLITE_LOCKED. The
// busy timeout already waits inside SQLite; this covers the cases it does not
// (a busy snapshot, a lock met while committing).
const (
	maxWriteAttempts = 5
	retryBackoff     = 10 * time.Millisecond
)

// write runs fn in an immediate transaction on the writer connection and
// commits it. A retryable failure rolls back and runs fn again from the start,
// so fn must do all its work through tx; any other error from fn rolls back
// and is returned as is.
func (s *Store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if s.writer == nil {
		return ErrReadOnly
	}
	delay := retryBackoff
	for attempt := 1; ; attempt++ {
		err := s.writeOnce(ctx, fn)
		if err == nil {
			s.ckpt.committed()
			return nil
		}
		if !retryable(err) || attempt == maxWriteAttempts {
			return err
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
		delay *= 2
	}
}

// writeOnce is one attempt of write.
func (s *Store) writeOnce(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// ms is a stored time: Unix milliseconds, 0 for the zero time.
func ms(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// fromMS inverts ms, in UTC.
func fromMS(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.UnixMilli(v).UTC()
}
