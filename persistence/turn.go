package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/steer-tui/steer/agent"
)

// CurrentTurn is the sequence number of the last user message on the path
// to the session's leaf — the turn a checkpoint belongs to (issue 32) — or
// 0 when the path has none. It reads the tree's shape only.
func (s *Store) CurrentTurn(ctx context.Context, sessionID string) (int, error) {
	tx, err := s.reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return 0, err
	}
	defer func() { _ = tx.Rollback() }() // read-only: nothing to keep
	var leaf int
	err = tx.QueryRowContext(ctx, `SELECT COALESCE(leaf_seq, 0) FROM sessions WHERE id = ?`, sessionID).Scan(&leaf)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("turn of session %s: %w", sessionID, ErrNotFound)
	}
	if err != nil || leaf == 0 {
		return 0, err
	}
	nodes, err := readNodes(ctx, tx, sessionID)
	if err != nil {
		return 0, err
	}
	path, err := pathTo(nodes, leaf)
	if err != nil {
		return 0, err
	}
	for i := len(path) - 1; i >= 0; i-- {
		if n := nodes[path[i]]; n.kind == EntryMessage && n.role == agent.RoleUser {
			return path[i], nil
		}
	}
	return 0, nil
}
