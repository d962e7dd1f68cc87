package persistence

import (
	"context"
	"fmt"
)

// SessionSpend is what a session's answers were billed for, from its
// running totals, and how many answers there were.
type SessionSpend struct {
	Cost                      float64
	InputTokens, OutputTokens int
	Answers                   int
}

// SessionSpend reads the spend of session id; a session not saved yet has
// spent nothing.
func (s *Store) SessionSpend(ctx context.Context, id string) (SessionSpend, error) {
	var sp SessionSpend
	err := s.reader.QueryRowContext(ctx, `SELECT
		COALESCE((SELECT cost FROM sessions WHERE id = ?1), 0),
		COALESCE((SELECT input_tokens FROM sessions WHERE id = ?1), 0),
		COALESCE((SELECT output_tokens FROM sessions WHERE id = ?1), 0),
		(SELECT COUNT(*) FROM transcript_entries WHERE session_id = ?1 AND role = 'assistant' AND kind = 'message')`,
		id).Scan(&sp.Cost, &sp.InputTokens, &sp.OutputTokens, &sp.Answers)
	if err != nil {
		return SessionSpend{}, s.classify(fmt.Errorf("session %s's spend: %w", id, err))
	}
	return sp, nil
}
