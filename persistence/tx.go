package persistence

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// The retry budget of a write that meets SQLITE_BUSY or SQLITE_LOCKED. The
// busy timeout already waits inside SQLite for another process's write
// transaction (every write here begins IMMEDIATE, so the wait happens at
// BEGIN, where SQLite's busy handler applies); this covers the cases it does
// not (a lock met while committing or recovering the WAL). Past the budget
// the write fails with ErrBusy.
const (
	maxWriteAttempts = 5
	retryBackoff     = 10 * time.Millisecond
)

// write runs fn in an immediate transaction on the writer connection and
// commits it. A retryable failure rolls back and runs fn again from the start,
// so fn must do all its work through tx; when the retries run out the error
// wraps ErrBusy. SQLite's answer that the file is corrupt becomes a
// *CorruptError, as Open gives for it. Any other error from fn rolls back and
// is returned as is.
// fn must not wait for anything but the database: the transaction holds the
// write lock of every process sharing the file.
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
		if !retryable(err) {
			return s.classify(err)
		}
		if attempt == maxWriteAttempts || ctx.Err() != nil {
			return fmt.Errorf("%w (gave up after %d attempts): %w", ErrBusy, attempt, err)
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%w (gave up after %d attempts): %w", ErrBusy, attempt, err)
		case <-t.C:
		}
		delay *= 2
	}
}

// writeOnce is one attempt of write, made through the write gate. It first
// checks, under the write lock,
// that no newer steer has migrated the database since this store opened it:
// another process may have, and this binary must not write a schema it does
// not know.
func (s *Store) writeOnce(ctx context.Context, fn func(tx *sql.Tx) error) error {
	defer s.gate.enter(ctx)()
	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	v, err := userVersion(ctx, tx)
	if err == nil && v > s.latest {
		err = &NewerSchemaError{Path: s.path, Version: v, Supported: s.latest}
	}
	if err == nil {
		err = fn(tx)
	}
	if err != nil {
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
