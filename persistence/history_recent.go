package persistence

import (
	"context"
	"fmt"
)

// LoadRecentHistory returns the entries of the session's path root → leaf
// from its latest context entry on (every entry when it has none): what the
// model sees and the compaction that starts it, without the history before,
// which LoadHistory reads. Opening a long session needs only this part at
// once. It returns an error wrapping ErrNotFound when the session does not
// exist.
func (s *Store) LoadRecentHistory(ctx context.Context, sessionID string) ([]Entry, error) {
	var out []Entry
	err := s.readPath(ctx, sessionID, lastContext, func(entries []Entry) { out = entries })
	if err != nil {
		return nil, s.classify(fmt.Errorf("load recent history of session %s: %w", sessionID, err))
	}
	return out, nil
}
