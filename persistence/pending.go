package persistence

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/steer-tui/steer/agent"
)

// AddPendingInput stores an input queued on the session (steering, a
// follow-up or a shell command). The input is durable when AddPendingInput
// returns, so the caller may acknowledge it then. A zero Created is now. The session must exist.
func (s *Store) AddPendingInput(ctx context.Context, sessionID string, item agent.QueueItem) error {
	if item.ID == "" {
		return errors.New("add pending input: empty item id")
	}
	switch item.Kind {
	case agent.QueueSteer, agent.QueueFollowUp, agent.QueueShell, agent.QueueShellPrivate:
	default:
		return fmt.Errorf("add pending input %s: unknown kind %q", item.ID, item.Kind)
	}
	var images sql.NullString
	if len(item.Images) > 0 {
		b, err := json.Marshal(item.Images)
		if err != nil {
			return fmt.Errorf("add pending input %s: encode images: %w", item.ID, err)
		}
		images = sql.NullString{String: string(b), Valid: true}
	}
	if item.Created.IsZero() {
		item.Created = s.now()
	}
	if err := s.ensureClaim(ctx, sessionID); err != nil {
		return fmt.Errorf("add pending input %s: %w", item.ID, err)
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		var one int
		err := tx.QueryRowContext(ctx, `SELECT 1 FROM sessions WHERE id = ?`, sessionID).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("session %s: %w", sessionID, ErrNotFound)
		}
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO pending_inputs
			(session_id, item_id, kind, text, images, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			sessionID, item.ID, string(item.Kind), item.Text, images, ms(item.Created))
		return err
	})
	if err != nil {
		return fmt.Errorf("add pending input %s: %w", item.ID, err)
	}
	return nil
}

// RemovePendingInput deletes a pending input that was taken back or dropped.
// Removing one that is not there is not an error: it may have been delivered
// in the meantime. Delivery itself retires the item through AppendMessage.
func (s *Store) RemovePendingInput(ctx context.Context, sessionID, itemID string) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx,
			`DELETE FROM pending_inputs WHERE session_id = ? AND item_id = ?`, sessionID, itemID)
		return err
	})
	if err != nil {
		return fmt.Errorf("remove pending input %s: %w", itemID, err)
	}
	return nil
}

// PendingInputs returns the session's pending inputs of both kinds in the order
// they were queued, so that they can be restored to the agent's queues.
func (s *Store) PendingInputs(ctx context.Context, sessionID string) ([]agent.QueueItem, error) {
	rows, err := s.reader.QueryContext(ctx, `SELECT item_id, kind, text, images, created_at
		FROM pending_inputs WHERE session_id = ? ORDER BY created_at, rowid`, sessionID)
	if err != nil {
		return nil, s.classify(fmt.Errorf("pending inputs of session %s: %w", sessionID, err))
	}
	defer rows.Close()
	var items []agent.QueueItem
	for rows.Next() {
		var it agent.QueueItem
		var kind string
		var images sql.NullString
		var created int64
		if err := rows.Scan(&it.ID, &kind, &it.Text, &images, &created); err != nil {
			return nil, s.classify(fmt.Errorf("pending inputs of session %s: %w", sessionID, err))
		}
		it.Kind, it.Created = agent.QueueKind(kind), fromMS(created)
		if images.Valid {
			if err := json.Unmarshal([]byte(images.String), &it.Images); err != nil {
				return nil, fmt.Errorf("pending input %s: images: %w", it.ID, err)
			}
		}
		items = append(items, it)
	}
	if err := rows.Err(); err != nil {
		return nil, s.classify(fmt.Errorf("pending inputs of session %s: %w", sessionID, err))
	}
	return items, nil
}
