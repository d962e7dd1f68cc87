package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
)

// LoadTree returns every entry of the session's transcript tree, every
// branch, in sequence order (parents first), and its leaf's Seq (0 when it
// has no entry): what an export writes. It errs wrapping ErrNotFound when
// the session does not exist.
func (s *Store) LoadTree(ctx context.Context, sessionID string) ([]Entry, int, error) {
	entries, leaf, err := s.loadTree(ctx, sessionID)
	if err != nil {
		return nil, 0, s.classify(fmt.Errorf("load tree of session %s: %w", sessionID, err))
	}
	return entries, leaf, nil
}

func (s *Store) loadTree(ctx context.Context, sessionID string) ([]Entry, int, error) {
	tx, err := s.reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, 0, err
	}
	defer func() { _ = tx.Rollback() }() // read-only: nothing to keep
	var leaf int
	err = tx.QueryRowContext(ctx, `SELECT COALESCE(leaf_seq, 0) FROM sessions WHERE id = ?`, sessionID).Scan(&leaf)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, 0, ErrNotFound
	}
	if err != nil {
		return nil, 0, err
	}
	nodes, err := readNodes(ctx, tx, sessionID)
	if err != nil {
		return nil, 0, err
	}
	all := make([]int, 0, len(nodes))
	for seq := range nodes {
		all = append(all, seq)
	}
	slices.Sort(all)
	entries, err := readEntries(ctx, tx, sessionID, nodes, all)
	return entries, leaf, err
}
