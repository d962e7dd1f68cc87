package persistence

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// The entries that are not part of the conversation but of its story: the
// model never sees them, except a branch summary, which stands for the
// branch the user left (pi's branch_summary).
const (
	// EntryLabel names another entry (Marker.Target) with Marker.Label; an
	// empty label removes the entry's label.
	EntryLabel EntryKind = "label"
	// EntryBranchSummary summarises, in Marker.Summary, the branch the
	// user left when they moved the leaf back; it is the new leaf's parent.
	EntryBranchSummary EntryKind = "branch_summary"
	// EntryModelChange records that the session uses Marker.Model on.
	EntryModelChange EntryKind = "model_change"
	// EntryThinkingChange records the thinking level Marker.Thinking.
	EntryThinkingChange EntryKind = "thinking_change"
	// EntryRewind records a rewind to the turn of user message
	// Marker.Target (AppendRewind, rewind.go).
	EntryRewind EntryKind = "rewind"
	// EntryApprovalChange records that the session's tool approval mode is
	// Marker.Approval on (plan mode, a plan approved into ask or auto).
	EntryApprovalChange EntryKind = "approval_change"
)

// IsMarker reports whether k is a marker kind (one that holds a Marker).
func (k EntryKind) IsMarker() bool {
	switch k {
	case EntryLabel, EntryBranchSummary, EntryModelChange, EntryThinkingChange, EntryRewind, EntryApprovalChange:
		return true
	}
	return false
}

// Marker is what a marker entry says; only its kind's fields are set.
type Marker struct {
	Target   int    `json:"target,omitempty"`
	Label    string `json:"label,omitempty"`
	Summary  string `json:"summary,omitempty"`
	Model    string `json:"model,omitempty"`
	Thinking string `json:"thinking,omitempty"`
	Approval string `json:"approval,omitempty"`
	// A rewind's: what went back (RewindCode, RewindConversation or
	// RewindBoth), how many files were restored and the leaf before it.
	Scope string `json:"scope,omitempty"`
	Files int    `json:"files,omitempty"`
	Leaf  int    `json:"leaf,omitempty"`
}

// ErrNoEntry is the answer for an entry the session does not have.
var ErrNoEntry = errors.New("no such entry in the session")

// AppendMarker appends a marker entry of kind under the session's leaf and
// makes it the leaf, returning its sequence number. A label's target must be
// an entry of the session. The session is claimed for this store first, as
// every write that defines its content is.
func (s *Store) AppendMarker(ctx context.Context, sessionID string, kind EntryKind, m Marker) (int, error) {
	seq, err := s.appendMarker(ctx, sessionID, kind, m, nil)
	if err != nil {
		return 0, s.classify(fmt.Errorf("append %s to session %s: %w", kind, sessionID, err))
	}
	return seq, nil
}

// appendMarker appends the marker under the leaf, or under *parent when
// given.
func (s *Store) appendMarker(ctx context.Context, sessionID string, kind EntryKind, m Marker, parent *int) (int, error) {
	if !kind.IsMarker() {
		return 0, fmt.Errorf("%q is not a marker kind", kind)
	}
	content, err := json.Marshal(m)
	if err != nil {
		return 0, err
	}
	if err := s.ensureClaim(ctx, sessionID); err != nil {
		return 0, err
	}
	now := s.now()
	var seq int
	err = s.write(ctx, func(tx *sql.Tx) error {
		at, err := appendPoint(ctx, tx, sessionID)
		if err != nil {
			return err
		}
		if parent != nil {
			if err := entryExists(ctx, tx, sessionID, *parent); err != nil {
				return err
			}
			at.leaf = *parent
		}
		if kind == EntryLabel {
			if err := entryExists(ctx, tx, sessionID, m.Target); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO transcript_entries
			(session_id, seq, parent_seq, kind, role, content, created_at)
			VALUES (?, ?, ?, ?, '', ?, ?)`, sessionID, at.next, nullSeq(at.leaf), string(kind), string(content), ms(now)); err != nil {
			return err
		}
		seq = at.next
		_, err = tx.ExecContext(ctx, `UPDATE sessions SET leaf_seq = ?, updated_at = ? WHERE id = ?`, seq, ms(now), sessionID)
		return err
	})
	return seq, err
}

// SetLeaf moves the session's leaf to entry seq: the path root → seq is
// what the user and the model see from now on, and the next entry is its
// child, beginning a branch when seq has children. With summary, a branch
// summary entry is appended under seq first and becomes the leaf. Nothing is
// deleted: the branch left stays in the tree. The caller makes sure no run
// writes the session meanwhile.
func (s *Store) SetLeaf(ctx context.Context, sessionID string, seq int, summary string) (int, error) {
	if summary != "" {
		leaf, err := s.appendMarker(ctx, sessionID, EntryBranchSummary, Marker{Summary: summary}, &seq)
		if err != nil {
			return 0, s.classify(fmt.Errorf("move the leaf of session %s to %d: %w", sessionID, seq, err))
		}
		return leaf, nil
	}
	if err := s.ensureClaim(ctx, sessionID); err != nil {
		return 0, s.classify(fmt.Errorf("move the leaf of session %s to %d: %w", sessionID, seq, err))
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		if err := entryExists(ctx, tx, sessionID, seq); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE sessions SET leaf_seq = ?, updated_at = ? WHERE id = ?`, seq, ms(s.now()), sessionID)
		return err
	})
	if err != nil {
		return 0, s.classify(fmt.Errorf("move the leaf of session %s to %d: %w", sessionID, seq, err))
	}
	return seq, nil
}

// entryExists says ErrNoEntry unless the session has entry seq.
func entryExists(ctx context.Context, tx *sql.Tx, sessionID string, seq int) error {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM transcript_entries WHERE session_id = ? AND seq = ?`, sessionID, seq).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("entry %d: %w", seq, ErrNoEntry)
	}
	return err
}
