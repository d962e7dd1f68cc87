package persistence

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/steer-tui/steer/failover"
)

// Ledger returns the auth-profile failure ledger kept in the database
// (table auth_profiles): one failover.ProfileState per profile id, shared
// by every steer process on the state directory and kept across restarts.
// It stores profile ids and statistics, never keys.
//
// Load reads through the read pool: a profile never recorded is the zero
// state with its ProfileID set, not an error. Update reads the row, applies
// fn and writes the result inside one immediate write transaction, so
// updates from any number of goroutines, stores and processes serialise and
// none is lost. fn runs while the transaction holds the database's write
// lock, so it must be quick and pure (no I/O, no clock: take the time before
// calling), and it may run more than once — a transaction that meets
// SQLITE_BUSY is rolled back and retried from the read, with fn applied to
// what is stored then. Update returns the state as stored (times at
// millisecond precision, in UTC), which is what a later Load returns. On a
// read-only store Update returns ErrReadOnly; with a newer steer's schema it
// returns a *NewerSchemaError; when the write lock stays taken it returns an
// error wrapping ErrBusy. Nothing is written in any of these cases.
//
// The ledger is safe for concurrent use and valid until the store closes.
func (s *Store) Ledger() failover.Ledger { return storeLedger{s} }

// storeLedger adapts a Store to failover.Ledger.
type storeLedger struct{ s *Store }

// Load implements failover.Ledger.
func (l storeLedger) Load(ctx context.Context, id string) (failover.ProfileState, error) {
	if id == "" {
		return failover.ProfileState{}, errors.New("load auth profile: empty profile id")
	}
	p, err := scanProfile(l.s.reader.QueryRowContext(ctx, profileSelect+` WHERE profile_id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return failover.ProfileState{ProfileID: id}, nil
	}
	if err != nil {
		return failover.ProfileState{}, l.s.classify(fmt.Errorf("load auth profile %s: %w", id, err))
	}
	return p, nil
}

// Update implements failover.Ledger.
func (l storeLedger) Update(ctx context.Context, id string, fn func(failover.ProfileState) failover.ProfileState) (failover.ProfileState, error) {
	if id == "" {
		return failover.ProfileState{}, errors.New("update auth profile: empty profile id")
	}
	var stored failover.ProfileState
	err := l.s.write(ctx, func(tx *sql.Tx) error {
		cur, err := scanProfile(tx.QueryRowContext(ctx, profileSelect+` WHERE profile_id = ?`, id))
		if errors.Is(err, sql.ErrNoRows) {
			cur, err = failover.ProfileState{ProfileID: id}, nil
		}
		if err != nil {
			return err
		}
		next := fn(cur)
		next.ProfileID = id
		r, err := encodeProfile(next)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, profileUpsert, append(r.args(), ms(l.s.now()))...); err != nil {
			return err
		}
		stored, err = r.decode()
		return err
	})
	if err != nil {
		return failover.ProfileState{}, fmt.Errorf("update auth profile %s: %w", id, err)
	}
	return stored, nil
}

// ProfileStates lists every auth profile the ledger has recorded, ordered by
// id, for `steer inspect profiles`. The states are as stored: windows that
// have ended are still there until the next update clears them (apply
// ProfileState.ClearExpired, or failover.ProfileStatus, with the time of the
// listing). It works on a read-only store.
func (s *Store) ProfileStates(ctx context.Context) ([]failover.ProfileState, error) {
	rows, err := s.reader.QueryContext(ctx, profileSelect+` ORDER BY profile_id`)
	if err != nil {
		return nil, s.classify(fmt.Errorf("list auth profiles: %w", err))
	}
	defer rows.Close()
	var out []failover.ProfileState
	for rows.Next() {
		p, err := scanProfile(rows)
		if err != nil {
			return nil, s.classify(fmt.Errorf("list auth profiles: %w", err))
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, s.classify(fmt.Errorf("list auth profiles: %w", err))
	}
	return out, nil
}

// ClearProfile ends profile id's cooldown and disabled windows (and the
// cooldown's source) and starts
// its failure-window counters (ErrorCount, ReasonCounts) over, so the
// profile is used again at once; the lifetime statistics (Failures,
// Successes, the last failure and success) stay. It is the inspector's
// "clear cooldown". A profile the ledger has never recorded has nothing to
// clear: ClearProfile returns nil and records nothing. On a read-only store
// it returns ErrReadOnly.
func (s *Store) ClearProfile(ctx context.Context, id string) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE auth_profiles SET
			error_count = 0, reason_counts = '{}',
			cooldown_until = 0, cooldown_model = '', cooldown_reason = ?, cooldown_source = '',
			disabled_until = 0, disabled_reason = ?, updated_at = ?
			WHERE profile_id = ?`,
			failover.ReasonUnknown.String(), failover.ReasonUnknown.String(), ms(s.now()), id)
		return err
	})
	if err != nil {
		return fmt.Errorf("clear auth profile %s: %w", id, err)
	}
	return nil
}

// profileSelect reads the columns profileRow holds, in its order.
const profileSelect = `SELECT profile_id, failures, successes, last_failure_at, last_failure_reason,
	last_success_at, error_count, reason_counts, cooldown_until, cooldown_model, cooldown_reason,
	cooldown_source, disabled_until, disabled_reason FROM auth_profiles`

// profileUpsert writes a profileRow (its args, then updated_at).
const profileUpsert = `INSERT INTO auth_profiles (profile_id, failures, successes, last_failure_at,
	last_failure_reason, last_success_at, error_count, reason_counts, cooldown_until, cooldown_model,
	cooldown_reason, cooldown_source, disabled_until, disabled_reason, updated_at)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT (profile_id) DO UPDATE SET
		failures = excluded.failures, successes = excluded.successes,
		last_failure_at = excluded.last_failure_at, last_failure_reason = excluded.last_failure_reason,
		last_success_at = excluded.last_success_at, error_count = excluded.error_count,
		reason_counts = excluded.reason_counts, cooldown_until = excluded.cooldown_until,
		cooldown_model = excluded.cooldown_model, cooldown_reason = excluded.cooldown_reason,
		cooldown_source = excluded.cooldown_source,
		disabled_until = excluded.disabled_until, disabled_reason = excluded.disabled_reason,
		updated_at = excluded.updated_at`

// profileRow is a ProfileState as stored: times in Unix milliseconds
// (0 for the zero time), reasons by code, the reason counts as a JSON
// object of the non-zero entries by code.
type profileRow struct {
	id                  string
	failures, successes int64
	lastFailureAt       int64
	lastFailureReason   string
	lastSuccessAt       int64
	errorCount          int64
	reasonCounts        string
	cooldownUntil       int64
	cooldownModel       string
	cooldownReason      string
	cooldownSource      string
	disabledUntil       int64
	disabledReason      string
}

func (r *profileRow) args() []any {
	return []any{r.id, r.failures, r.successes, r.lastFailureAt, r.lastFailureReason,
		r.lastSuccessAt, r.errorCount, r.reasonCounts, r.cooldownUntil, r.cooldownModel,
		r.cooldownReason, r.cooldownSource, r.disabledUntil, r.disabledReason}
}

func (r *profileRow) dest() []any {
	return []any{&r.id, &r.failures, &r.successes, &r.lastFailureAt, &r.lastFailureReason,
		&r.lastSuccessAt, &r.errorCount, &r.reasonCounts, &r.cooldownUntil, &r.cooldownModel,
		&r.cooldownReason, &r.cooldownSource, &r.disabledUntil, &r.disabledReason}
}

// scanProfile reads one profileSelect row.
func scanProfile(row interface{ Scan(...any) error }) (failover.ProfileState, error) {
	var r profileRow
	if err := row.Scan(r.dest()...); err != nil {
		return failover.ProfileState{}, err
	}
	return r.decode()
}

// encodeProfile renders p as its row.
func encodeProfile(p failover.ProfileState) (profileRow, error) {
	counts := map[string]int{}
	for reason, n := range p.ReasonCounts {
		if n != 0 {
			counts[failover.Reason(reason).String()] = n
		}
	}
	b, err := json.Marshal(counts) // keys sorted: the same state, the same text
	if err != nil {
		return profileRow{}, fmt.Errorf("encode reason counts: %w", err)
	}
	return profileRow{
		id:                p.ProfileID,
		failures:          int64(p.Failures),
		successes:         int64(p.Successes),
		lastFailureAt:     ms(p.LastFailureAt),
		lastFailureReason: p.LastFailureReason.String(),
		lastSuccessAt:     ms(p.LastSuccessAt),
		errorCount:        int64(p.ErrorCount),
		reasonCounts:      string(b),
		cooldownUntil:     ms(p.CooldownUntil),
		cooldownModel:     p.CooldownModel,
		cooldownReason:    p.CooldownReason.String(),
		cooldownSource:    p.CooldownSource,
		disabledUntil:     ms(p.DisabledUntil),
		disabledReason:    p.DisabledReason.String(),
	}, nil
}

// decode inverts encodeProfile. A reason code this binary does not know (a
// newer steer may add reasons without a new schema) reads as
// failover.ReasonUnknown, and its entry in reason_counts is skipped: the
// window's counters of this binary's reasons and the lifetime Failures
// still hold.
func (r *profileRow) decode() (failover.ProfileState, error) {
	var counts map[string]int
	if err := json.Unmarshal([]byte(r.reasonCounts), &counts); err != nil {
		return failover.ProfileState{}, fmt.Errorf("auth profile %s: reason counts %q: %w", r.id, r.reasonCounts, err)
	}
	p := failover.ProfileState{
		ProfileID:         r.id,
		Failures:          int(r.failures),
		Successes:         int(r.successes),
		LastFailureAt:     fromMS(r.lastFailureAt),
		LastFailureReason: reasonOf(r.lastFailureReason),
		LastSuccessAt:     fromMS(r.lastSuccessAt),
		ErrorCount:        int(r.errorCount),
		CooldownUntil:     fromMS(r.cooldownUntil),
		CooldownModel:     r.cooldownModel,
		CooldownReason:    reasonOf(r.cooldownReason),
		CooldownSource:    r.cooldownSource,
		DisabledUntil:     fromMS(r.disabledUntil),
		DisabledReason:    reasonOf(r.disabledReason),
	}
	for code, n := range counts {
		if reason, ok := failover.ParseReason(code); ok {
			p.ReasonCounts[reason] = n
		}
	}
	return p, nil
}

// reasonOf reads a stored reason code; an unknown one is ReasonUnknown.
func reasonOf(code string) failover.Reason {
	r, _ := failover.ParseReason(code)
	return r
}
