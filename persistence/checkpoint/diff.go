package checkpoint

import (
	"context"
	"errors"
)

// ErrNoLast says steer has not left the session's workspace yet: no
// mutating tool has run in it.
var ErrNoLast = errors.New("no mutating tool has run in the session yet")

// Diff is the changes that take snapshot from to snapshot to, each with
// the lines it adds and removes: a turn's changes are Diff(its checkpoint,
// the next), which /rewind lists beside it. An Action says what a restore
// of from to to would do (ActionCreate: to has the file, from has not).
func (s *Store) Diff(ctx context.Context, session, from, to string) ([]Change, error) {
	if err := checkSession(session); err != nil {
		return nil, err
	}
	return diffTrees(ctx, s.shadow(session), from, to)
}

// Last is the snapshot of the workspace as steer last left it for session
// (after its last mutating tool or restore), or ErrNoLast.
func (s *Store) Last(ctx context.Context, session string) (string, error) {
	if err := checkSession(session); err != nil {
		return "", err
	}
	id, err := s.shadow(session).line(ctx, nil, "rev-parse", "-q", "--verify", lastRef(session))
	if err != nil || id == "" {
		return "", ErrNoLast
	}
	return id, nil
}
