package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Attempt is one attempt of a run (SPEC §7.4): an auth profile of a model,
// how it ended and what was decided. The run's attempts are its failover
// trace.
type Attempt struct {
	Profile string
	Model   string
	// Reason is the failure's reason code; "" when the attempt answered.
	Reason string
	// Decision is the failover decision taken after a failure.
	Decision string
	Duration time.Duration
	Ended    time.Time
}

// AppendAttempt adds the run's next attempt to its record.
func (s *Store) AppendAttempt(ctx context.Context, runID string, a Attempt) error {
	return s.appendAttempt(ctx, runID, a, false)
}

// RetryAppendAttempt is AppendAttempt for a retry of one that failed: when
// the run's last attempt equals a (the failed call had committed after
// all), it is not recorded twice.
func (s *Store) RetryAppendAttempt(ctx context.Context, runID string, a Attempt) error {
	return s.appendAttempt(ctx, runID, a, true)
}

func (s *Store) appendAttempt(ctx context.Context, runID string, a Attempt, retry bool) error {
	if a.Ended.IsZero() {
		a.Ended = s.now()
	}
	args := []any{a.Profile, a.Model, a.Reason, a.Decision, a.Duration.Milliseconds(), ms(a.Ended)}
	err := s.write(ctx, func(tx *sql.Tx) error {
		if retry {
			var one int
			err := tx.QueryRowContext(ctx, `SELECT 1 FROM run_attempts
				WHERE run_id = ? AND seq = (SELECT MAX(seq) FROM run_attempts WHERE run_id = ?)
				AND profile_id = ? AND model = ? AND reason = ? AND decision = ? AND duration_ms = ? AND ended_at = ?`,
				append([]any{runID, runID}, args...)...).Scan(&one)
			if err == nil {
				return nil
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO run_attempts
			(run_id, seq, profile_id, model, reason, decision, duration_ms, ended_at)
			VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM run_attempts WHERE run_id = ?), ?, ?, ?, ?, ?, ?)`,
			append([]any{runID, runID}, args...)...)
		return err
	})
	if err != nil {
		return fmt.Errorf("record an attempt of run %s: %w", runID, err)
	}
	return nil
}

// RunAttempts returns the run's attempts in order.
func (s *Store) RunAttempts(ctx context.Context, runID string) ([]Attempt, error) {
	rows, err := s.reader.QueryContext(ctx, `SELECT profile_id, model, reason, decision, duration_ms, ended_at
		FROM run_attempts WHERE run_id = ? ORDER BY seq`, runID)
	if err != nil {
		return nil, s.classify(fmt.Errorf("attempts of run %s: %w", runID, err))
	}
	defer rows.Close()
	var out []Attempt
	for rows.Next() {
		var a Attempt
		var duration, ended int64
		if err := rows.Scan(&a.Profile, &a.Model, &a.Reason, &a.Decision, &duration, &ended); err != nil {
			return nil, s.classify(fmt.Errorf("attempts of run %s: %w", runID, err))
		}
		a.Duration, a.Ended = time.Duration(duration)*time.Millisecond, fromMS(ended)
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, s.classify(fmt.Errorf("attempts of run %s: %w", runID, err))
	}
	return out, nil
}
