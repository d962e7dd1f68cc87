package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ProfileChoice is the auth profiles a session's user chose (SPEC §5.3,
// S25, S26): Preferred is tried first while it is eligible, Locked is the
// only one the session uses; "" for none. The ids are kept as chosen: a
// reader whose configuration no longer has one decides what to do with it.
type ProfileChoice struct {
	Preferred, Locked string
}

// SessionProfileChoice is one session's choice, as ProfileChoices lists it.
type SessionProfileChoice struct {
	SessionID string
	ProfileChoice
}

// SetSessionProfiles records session id's choice, replacing the one before.
// It is one UPDATE of the session's row, so that steer processes writing
// other sessions are held up no longer than any single write. It does not
// count as activity: the session keeps its place in the list.
func (s *Store) SetSessionProfiles(ctx context.Context, id string, c ProfileChoice) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE sessions SET preferred_profile = ?, locked_profile = ? WHERE id = ?`,
			c.Preferred, c.Locked, id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return errors.Join(err, ErrNotFound)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("set the auth profiles of session %s: %w", id, err)
	}
	return nil
}

// SessionProfiles returns session id's choice, or an error wrapping
// ErrNotFound.
func (s *Store) SessionProfiles(ctx context.Context, id string) (ProfileChoice, error) {
	var c ProfileChoice
	err := s.reader.QueryRowContext(ctx, `SELECT preferred_profile, locked_profile FROM sessions WHERE id = ?`, id).
		Scan(&c.Preferred, &c.Locked)
	if errors.Is(err, sql.ErrNoRows) {
		return ProfileChoice{}, fmt.Errorf("auth profiles of session %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return ProfileChoice{}, s.classify(fmt.Errorf("auth profiles of session %s: %w", id, err))
	}
	return c, nil
}

// ProfileChoices lists every session that chose a preferred or a locked
// profile, most recently updated first (the inspector shows who chose
// what). It may be called on a read-only store.
func (s *Store) ProfileChoices(ctx context.Context) ([]SessionProfileChoice, error) {
	rows, err := s.reader.QueryContext(ctx, `SELECT id, preferred_profile, locked_profile FROM sessions
		WHERE preferred_profile != '' OR locked_profile != ''
		ORDER BY updated_at DESC, rowid DESC`)
	if err != nil {
		return nil, s.classify(fmt.Errorf("list the auth profile choices: %w", err))
	}
	defer rows.Close()
	var out []SessionProfileChoice
	for rows.Next() {
		var c SessionProfileChoice
		if err := rows.Scan(&c.SessionID, &c.Preferred, &c.Locked); err != nil {
			return nil, s.classify(fmt.Errorf("list the auth profile choices: %w", err))
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, s.classify(fmt.Errorf("list the auth profile choices: %w", err))
	}
	return out, nil
}
