package persistence

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
)

// The scopes of a rewind entry (Marker.Scope).
const (
	RewindCode         = "code"
	RewindConversation = "conversation"
	RewindBoth         = "both"
	// RewindRedo undoes the rewind entry Marker.Target; it is appended
	// under the leaf, which the redo has moved back first.
	RewindRedo = "redo"
)

// AppendRewind records a rewind to the turn of user message m.Target and
// returns the entry's sequence number. A rewind of the conversation
// (RewindConversation, RewindBoth) appends the entry under that message's
// parent, so that the turn and those after it leave the path (they stay in
// the tree) and the entry is the new leaf; a code rewind or a redo appends
// it under the leaf. m.Leaf is set to the leaf before, for a redo. The tree is read
// and written in one transaction, and the session claimed first, as every
// write that defines its content is.
func (s *Store) AppendRewind(ctx context.Context, sessionID string, m Marker) (int, error) {
	if err := s.ensureClaim(ctx, sessionID); err != nil {
		return 0, s.classify(fmt.Errorf("rewind session %s: %w", sessionID, err))
	}
	now := s.now()
	var seq int
	err := s.write(ctx, func(tx *sql.Tx) error {
		at, err := appendPoint(ctx, tx, sessionID)
		if err != nil {
			return err
		}
		nodes, err := readNodes(ctx, tx, sessionID)
		if err != nil {
			return err
		}
		target, ok := nodes[m.Target]
		if !ok {
			return fmt.Errorf("entry %d: %w", m.Target, ErrNoEntry)
		}
		m.Leaf = at.leaf
		if m.Scope == RewindConversation || m.Scope == RewindBoth {
			at.leaf = target.parent
		}
		content, err := json.Marshal(m)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO transcript_entries
			(session_id, seq, parent_seq, kind, role, content, created_at)
			VALUES (?, ?, ?, ?, '', ?, ?)`, sessionID, at.next, nullSeq(at.leaf), string(EntryRewind), string(content), ms(now)); err != nil {
			return err
		}
		seq = at.next
		_, err = tx.ExecContext(ctx, `UPDATE sessions SET leaf_seq = ?, updated_at = ? WHERE id = ?`, seq, ms(now), sessionID)
		return err
	})
	if err != nil {
		return 0, s.classify(fmt.Errorf("rewind session %s: %w", sessionID, err))
	}
	return seq, nil
}
