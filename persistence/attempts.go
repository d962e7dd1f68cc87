package persistence

import (
	"context"
	"database/sql"
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
	if a.Ended.IsZero() {
		a.Ended = s.now()
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO run_attempts
			(run_id, seq, profile_id, model, reason, decision, duration_ms, ended_at)
			VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM run_attempts WHERE run_id = ?), ?, ?, ?, ?, ?, ?)`,
			runID, runID, a.Profile, a.Model, a.Reason, a.Decision, a.Duration.Milliseconds(), ms(a.Ended))
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
