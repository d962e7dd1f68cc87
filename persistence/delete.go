package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ErrOpenHere is DeleteSession's answer for a session this store has open
// (the current one, or one running in the background).
var ErrOpenHere = errors.New("the session is open in this steer")

// DeleteSession deletes session id and everything of it: its transcript and
// search index, queued inputs, runs and records. It is the user's explicit
// choice (the picker asks first); a session this store or another live
// process has open is refused (ErrOpenHere, *OwnedError), and so is one
// that does not exist (ErrNotFound). The claim taken for the deletion keeps
// another process from opening it meanwhile.
func (s *Store) DeleteSession(ctx context.Context, id string) error {
	c, err := s.claimToDelete(ctx, id)
	if err != nil {
		return err
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM transcript_search WHERE session_id = ?`, id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE id = ?`, id)
		return err
	})
	if rerr := c.Release(ctx); err == nil && rerr != nil {
		err = rerr
	}
	if err != nil {
		return s.classify(fmt.Errorf("delete session %s: %w", id, err))
	}
	return nil
}

// claimToDelete claims session id unless this store holds it already, the
// check and the claim under one lock, so that the session cannot be opened
// here between them.
func (s *Store) claimToDelete(ctx context.Context, id string) (*Claim, error) {
	if s.writer == nil {
		return nil, ErrReadOnly
	}
	s.claimsMu.Lock()
	defer s.claimsMu.Unlock()
	held, err := s.heldLocked(id)
	switch {
	case err != nil:
		return nil, err
	case held != nil:
		return nil, fmt.Errorf("delete session %s: %w", id, ErrOpenHere)
	}
	c, err := s.claimLocked(ctx, id, func(tx *sql.Tx) error {
		var one int
		err := tx.QueryRowContext(ctx, `SELECT 1 FROM sessions WHERE id = ?`, id).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("session %s: %w", id, ErrNotFound)
		}
		return err
	})
	var oe *OwnedError
	if err != nil && !errors.As(err, &oe) {
		err = fmt.Errorf("delete session %s: %w", id, err)
	}
	return c, err
}
