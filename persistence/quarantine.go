package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/steer-tui/steer/contextguard/engines"
)

// EngineQuarantines returns the context-engine quarantines kept in the
// database (table engine_quarantines): one engines.Quarantine per engine,
// shared by every steer process on the state directory and kept across
// restarts.
//
// Record reads the engine's row, merges the new failure into it
// (engines.Quarantine.Merge: the first failure wins, the counts add up) and
// writes it inside one immediate write transaction, so failures recorded at
// once by any number of goroutines, stores and processes are all counted. It
// returns the quarantine as stored (times at millisecond precision, in UTC).
// Load and List read through the read pool and work on a read-only store;
// Clear deletes the row. On a read-only store Record and Clear return
// ErrReadOnly; with a newer steer's schema a *NewerSchemaError; when the
// write lock stays taken an error wrapping ErrBusy. Nothing is written in
// any of these cases.
//
// The store is safe for concurrent use and valid until the Store closes.
func (s *Store) EngineQuarantines() engines.QuarantineStore { return quarantineStore{s} }

// quarantineStore adapts a Store to engines.QuarantineStore.
type quarantineStore struct{ s *Store }

// quarantineSelect reads the columns scanQuarantine expects, in its order.
const quarantineSelect = `SELECT engine, method, reason, error, since, last_at, count FROM engine_quarantines`

// Record implements engines.QuarantineStore.
func (qs quarantineStore) Record(ctx context.Context, q engines.Quarantine) (engines.Quarantine, error) {
	if q.Engine == "" {
		return engines.Quarantine{}, errors.New("record a quarantine: empty engine name")
	}
	var stored engines.Quarantine
	err := qs.s.write(ctx, func(tx *sql.Tx) error {
		cur, err := scanQuarantine(tx.QueryRowContext(ctx, quarantineSelect+` WHERE engine = ?`, q.Engine))
		if errors.Is(err, sql.ErrNoRows) {
			cur, err = engines.Quarantine{}, nil
		}
		if err != nil {
			return err
		}
		next := cur.Merge(q)
		next.Engine = q.Engine
		if _, err := tx.ExecContext(ctx, `INSERT INTO engine_quarantines (engine, method, reason, error, since, last_at, count)
			VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (engine) DO UPDATE SET method = excluded.method, reason = excluded.reason,
				error = excluded.error, since = excluded.since, last_at = excluded.last_at, count = excluded.count`,
			next.Engine, string(next.Method), string(next.Reason), next.Error, ms(next.Since), ms(next.Last), next.Count); err != nil {
			return err
		}
		stored = roundToStored(next)
		return nil
	})
	if err != nil {
		return engines.Quarantine{}, fmt.Errorf("record the quarantine of context engine %s: %w", q.Engine, err)
	}
	return stored, nil
}

// Load implements engines.QuarantineStore.
func (qs quarantineStore) Load(ctx context.Context, engine string) (engines.Quarantine, bool, error) {
	q, err := scanQuarantine(qs.s.reader.QueryRowContext(ctx, quarantineSelect+` WHERE engine = ?`, engine))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return engines.Quarantine{}, false, nil
	case err != nil:
		return engines.Quarantine{}, false, qs.s.classify(fmt.Errorf("load the quarantine of context engine %s: %w", engine, err))
	}
	return q, true, nil
}

// List implements engines.QuarantineStore: ordered by engine name, and
// never nil.
func (qs quarantineStore) List(ctx context.Context) ([]engines.Quarantine, error) {
	rows, err := qs.s.reader.QueryContext(ctx, quarantineSelect+` ORDER BY engine`)
	if err != nil {
		return nil, qs.s.classify(fmt.Errorf("list context-engine quarantines: %w", err))
	}
	defer rows.Close()
	out := []engines.Quarantine{}
	for rows.Next() {
		q, err := scanQuarantine(rows)
		if err != nil {
			return nil, qs.s.classify(fmt.Errorf("list context-engine quarantines: %w", err))
		}
		out = append(out, q)
	}
	if err := rows.Err(); err != nil {
		return nil, qs.s.classify(fmt.Errorf("list context-engine quarantines: %w", err))
	}
	return out, nil
}

// Clear implements engines.QuarantineStore.
func (qs quarantineStore) Clear(ctx context.Context, engine string) (bool, error) {
	var had bool
	err := qs.s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM engine_quarantines WHERE engine = ?`, engine)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		had = n > 0
		return err
	})
	if err != nil {
		return false, fmt.Errorf("clear the quarantine of context engine %s: %w", engine, err)
	}
	return had, nil
}

// scanQuarantine reads one quarantineSelect row. Method and reason are kept
// as stored, so a newer steer's values read back unchanged.
func scanQuarantine(row interface{ Scan(...any) error }) (engines.Quarantine, error) {
	var (
		q              engines.Quarantine
		method, reason string
		since, lastAt  int64
		count          int64
	)
	if err := row.Scan(&q.Engine, &method, &reason, &q.Error, &since, &lastAt, &count); err != nil {
		return engines.Quarantine{}, err
	}
	q.Method, q.Reason = engines.Method(method), engines.Reason(reason)
	q.Since, q.Last, q.Count = fromMS(since), fromMS(lastAt), int(count)
	return q, nil
}

// roundToStored is q as a later read returns it: times in milliseconds, in
// UTC.
func roundToStored(q engines.Quarantine) engines.Quarantine {
	q.Since, q.Last = fromMS(ms(q.Since)), fromMS(ms(q.Last))
	return q
}
