package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Run is the record of one run of the agent on a session.
type Run struct {
	ID        string
	SessionID string
	// Trigger says what started the run (user, follow-up, rpc, …).
	Trigger string
	Started time.Time

	// Ended, Outcome, Reason and Error are set by FinishRun; Ended is zero
	// while the run is going (or when its process died).
	Ended   time.Time
	Outcome string
	// Reason is why a run that did not complete ended (a failover reason's
	// code, context_overflow, compaction_failure); "" when it completed, or
	// for runs recorded before migration 0009.
	Reason string
	Error  string
}

// RunEnd is how a run ended, as FinishRun records it. A zero Ended is now.
type RunEnd struct {
	Outcome string
	Reason  string
	Error   string
	Ended   time.Time
}

// BeginRun records r and makes it the session's active writer, superseding
// any earlier run: from then on only r may write the transcript. A zero
// Started is now. The session must exist (else ErrNotFound). A session this
// store has not claimed is claimed first (see ClaimSession), so a session a
// live process owns gives a *OwnedError; the claim stays with the store until
// it is released or the store closes. Beginning a run already recorded for
// the session (the retry of a begin whose commit landed although it reported
// a failure) only makes it the active writer again.
func (s *Store) BeginRun(ctx context.Context, r Run) error {
	if r.ID == "" {
		return errors.New("begin run: empty run id")
	}
	if r.Started.IsZero() {
		r.Started = s.now()
	}
	if err := s.ensureClaim(ctx, r.SessionID); err != nil {
		return fmt.Errorf("begin run %s: %w", r.ID, err)
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx,
			`UPDATE sessions SET active_writer_run_id = ? WHERE id = ?`, r.ID, r.SessionID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return errors.Join(err, fmt.Errorf("session %s: %w", r.SessionID, ErrNotFound))
		}
		if _, err = tx.ExecContext(ctx,
			`INSERT INTO runs (run_id, session_id, "trigger", started_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (run_id) DO NOTHING`,
			r.ID, r.SessionID, r.Trigger, ms(r.Started)); err != nil {
			return err
		}
		var owner string
		if err := tx.QueryRowContext(ctx, `SELECT session_id FROM runs WHERE run_id = ?`, r.ID).Scan(&owner); err != nil {
			return err
		}
		if owner != r.SessionID {
			return fmt.Errorf("the run id is taken by session %s", owner)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("begin run %s: %w", r.ID, err)
	}
	return nil
}

// EndRun is FinishRun for a run that needs no reason (a repair, a manual
// compaction).
func (s *Store) EndRun(ctx context.Context, runID, outcome, errText string, ended time.Time) error {
	return s.FinishRun(ctx, runID, RunEnd{Outcome: outcome, Error: errText, Ended: ended})
}

// FinishRun records how the run ended and, when it is still the session's
// active writer, leaves the session without one. It returns ErrNotFound for
// an unknown run.
func (s *Store) FinishRun(ctx context.Context, runID string, end RunEnd) error {
	if end.Ended.IsZero() {
		end.Ended = s.now()
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		var sessionID string
		err := tx.QueryRowContext(ctx, `UPDATE runs SET ended_at = ?, outcome = ?, reason = ?, error = ?
			WHERE run_id = ? RETURNING session_id`, ms(end.Ended), end.Outcome, end.Reason, end.Error, runID).Scan(&sessionID)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE sessions SET active_writer_run_id = NULL
			WHERE id = ? AND active_writer_run_id = ?`, sessionID, runID)
		return err
	})
	if err != nil {
		return fmt.Errorf("end run %s: %w", runID, err)
	}
	return nil
}

// Run returns the record of run id, or an error wrapping ErrNotFound.
func (s *Store) Run(ctx context.Context, id string) (Run, error) {
	var r Run
	var started int64
	var ended sql.NullInt64
	err := s.reader.QueryRowContext(ctx, `SELECT run_id, session_id, "trigger", started_at, ended_at, outcome, reason, error
		FROM runs WHERE run_id = ?`, id).Scan(&r.ID, &r.SessionID, &r.Trigger, &started, &ended, &r.Outcome, &r.Reason, &r.Error)
	if errors.Is(err, sql.ErrNoRows) {
		return Run{}, fmt.Errorf("run %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Run{}, s.classify(fmt.Errorf("run %s: %w", id, err))
	}
	r.Started, r.Ended = fromMS(started), fromMS(ended.Int64)
	return r, nil
}

// RunsOptions filter ListRuns: one session's runs ("" for every session's),
// at most Limit of them (0 for DefaultRunsLimit).
type RunsOptions struct {
	SessionID string
	Limit     int
}

// DefaultRunsLimit is how many runs ListRuns returns unless told.
const DefaultRunsLimit = 50

// ListRuns returns the most recent runs, newest first, with the number of
// attempts each made.
func (s *Store) ListRuns(ctx context.Context, o RunsOptions) ([]RunSummary, error) {
	if o.Limit <= 0 {
		o.Limit = DefaultRunsLimit
	}
	rows, err := s.reader.QueryContext(ctx, `SELECT r.run_id, r.session_id, r."trigger", r.started_at, r.ended_at, r.outcome, r.reason, r.error,
		(SELECT COUNT(*) FROM run_attempts a WHERE a.run_id = r.run_id)
		FROM runs r WHERE (? = '' OR r.session_id = ?) ORDER BY r.started_at DESC, r.rowid DESC LIMIT ?`,
		o.SessionID, o.SessionID, o.Limit)
	if err != nil {
		return nil, s.classify(fmt.Errorf("list runs: %w", err))
	}
	defer rows.Close()
	out := []RunSummary{}
	for rows.Next() {
		var r RunSummary
		var started int64
		var ended sql.NullInt64
		if err := rows.Scan(&r.ID, &r.SessionID, &r.Trigger, &started, &ended, &r.Outcome, &r.Reason, &r.Error, &r.Attempts); err != nil {
			return nil, s.classify(fmt.Errorf("list runs: %w", err))
		}
		r.Started, r.Ended = fromMS(started), fromMS(ended.Int64)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, s.classify(fmt.Errorf("list runs: %w", err))
	}
	return out, nil
}

// RunSummary is a run record with the number of its attempts.
type RunSummary struct {
	Run
	Attempts int
}
