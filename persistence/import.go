package persistence

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/steer-tui/steer/agent"
)

// ImportedSession is a session written elsewhere (a JSONL export read back)
// that ImportSession creates here whole: its row, its whole transcript tree
// and its queue.
type ImportedSession struct {
	// Session is the new row: ID (fresh), Workspace, Title, Name, Model and
	// Created are kept; the counters are computed from the entries and
	// Updated is the time of the import, so that the session lists first.
	Session Session
	// Entries are the tree, every parent before its children.
	Entries []ImportedEntry
	// Leaf is the index in Entries of the current branch's last entry; -1
	// when there are no entries.
	Leaf int
	// Pending are the inputs queued and not yet sent, in order.
	Pending []agent.QueueItem
}

// ImportedEntry is one entry of an imported tree.
type ImportedEntry struct {
	// Parent is the index in Entries of the entry's parent, lower than the
	// entry's own (so sequence numbers keep parents first); -1 for a root.
	Parent  int
	Kind    EntryKind
	Message agent.Message   // an EntryMessage's
	Context []agent.Message // an EntryContext's
	// Marker is a marker's; a label's Target is the index in Entries of
	// the entry it names.
	Marker  Marker
	Created time.Time
}

// ImportSession creates in.Session with its entries, search rows and
// pending inputs in one write transaction, which also claims it for this
// store (the rule of every write that defines a session's content); the
// claim is released once the import is in. Entry i gets sequence number
// i+1. Bad input (a parent after its child, an unknown kind or queue kind,
// a session id in use) creates nothing.
func (s *Store) ImportSession(ctx context.Context, in ImportedSession) error {
	id := in.Session.ID
	if id == "" {
		return errors.New("import session: empty id")
	}
	if s.writer == nil {
		return fmt.Errorf("import session %s: %w", id, ErrReadOnly)
	}
	rows, err := importRows(in)
	if err != nil {
		return fmt.Errorf("import session %s: %w", id, err)
	}
	now := s.now()
	s.claimsMu.Lock()
	defer s.claimsMu.Unlock()
	if c, err := s.heldLocked(id); err != nil || c != nil {
		return fmt.Errorf("import session %s: %w", id, errors.Join(err, errIDInUse(c)))
	}
	c, err := s.claimLocked(ctx, id, func(tx *sql.Tx) error { return insertImport(ctx, tx, in, rows, now) })
	if err != nil {
		return fmt.Errorf("import session %s: %w", id, err)
	}
	if err := s.releaseLocked(ctx, c); err != nil {
		return fmt.Errorf("import session %s: imported, but %w", id, err)
	}
	return nil
}

func errIDInUse(c *Claim) error {
	if c == nil {
		return nil
	}
	return errors.New("the session id is in use")
}

// importRow is an entry as stored: its encoded content.
type importRow struct {
	parent  sql.NullInt64
	content string
}

// importRows checks in and encodes its entries.
func importRows(in ImportedSession) ([]importRow, error) {
	if in.Leaf < -1 || in.Leaf >= len(in.Entries) || in.Leaf == -1 && len(in.Entries) > 0 {
		return nil, fmt.Errorf("leaf %d is not one of the %d entries", in.Leaf, len(in.Entries))
	}
	rows := make([]importRow, len(in.Entries))
	for i, e := range in.Entries {
		if e.Parent < -1 || e.Parent >= i {
			return nil, fmt.Errorf("entry %d: its parent %d does not come before it", i, e.Parent)
		}
		rows[i].parent = nullSeq(e.Parent + 1)
		switch e.Kind {
		case EntryMessage:
			enc, err := encodeMessages([]agent.Message{e.Message})
			if err != nil {
				return nil, fmt.Errorf("entry %d: %w", i, err)
			}
			rows[i].content = enc[0]
		case EntryContext:
			enc, err := encodeMessages(e.Context)
			if err != nil {
				return nil, fmt.Errorf("entry %d: %w", i, err)
			}
			rows[i].content = "[" + strings.Join(enc, ",") + "]"
		case EntryLabel, EntryBranchSummary, EntryModelChange, EntryThinkingChange, EntryRewind, EntryApprovalChange:
			m := e.Marker
			if e.Kind == EntryLabel || e.Kind == EntryRewind {
				if m.Target < 0 || m.Target >= len(in.Entries) {
					return nil, fmt.Errorf("entry %d: the %s names entry %d, which is not imported", i, e.Kind, m.Target)
				}
				m.Target++ // an index becomes a sequence number
				m.Leaf = 0 // an export does not carry it: no redo of an imported rewind
			}
			data, err := json.Marshal(m)
			if err != nil {
				return nil, fmt.Errorf("entry %d: %w", i, err)
			}
			rows[i].content = string(data)
		default:
			return nil, fmt.Errorf("entry %d: unknown kind %q", i, e.Kind)
		}
	}
	for _, it := range in.Pending {
		if it.ID == "" || it.Kind != agent.QueueSteer && it.Kind != agent.QueueFollowUp {
			return nil, fmt.Errorf("queued input %q: want an id and kind steer or follow_up, got kind %q", it.ID, it.Kind)
		}
	}
	return rows, nil
}

// insertImport writes the session row, its entries with their search rows
// and its pending inputs.
func insertImport(ctx context.Context, tx *sql.Tx, in ImportedSession, rows []importRow, now time.Time) error {
	ss := in.Session
	var in0, out int
	var cost float64
	var msgs []agent.Message
	for _, e := range in.Entries {
		if e.Kind != EntryMessage {
			continue
		}
		msgs = append(msgs, e.Message)
		if e.Message.Role == agent.RoleAssistant {
			u := e.Message.Usage
			in0 += u.Input + u.CacheRead + u.CacheWrite
			out += u.Output
			cost += u.Cost.Total
		}
	}
	if ss.Title == "" {
		ss.Title = firstUserTitle(msgs)
	}
	if ss.Created.IsZero() {
		ss.Created = now
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (id, workspace, title, name, model, parent_id,
		created_at, updated_at, message_count, input_tokens, output_tokens, cost, leaf_seq)
		VALUES (?, ?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?)`,
		ss.ID, ss.Workspace, ss.Title, ss.Name, ss.Model, ms(ss.Created), ms(now),
		len(msgs), in0, out, cost, nullSeq(in.Leaf+1)); err != nil {
		return err
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO transcript_entries
		(session_id, seq, parent_seq, kind, role, content, stop_reason, input_tokens, output_tokens,
		 cache_read_tokens, cache_write_tokens, cost, run_id, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', ?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for i, e := range in.Entries {
		m := e.Message
		if e.Kind != EntryMessage {
			m = agent.Message{}
		}
		u := m.Usage
		if _, err := stmt.ExecContext(ctx, ss.ID, i+1, rows[i].parent, string(e.Kind), string(m.Role), rows[i].content,
			string(m.StopReason), u.Input, u.Output, u.CacheRead, u.CacheWrite, u.Cost.Total, ms(e.Created)); err != nil {
			return fmt.Errorf("entry %d: %w", i, err)
		}
		if e.Kind == EntryMessage {
			if err := indexMessages(ctx, tx, ss.ID, i+1, []agent.Message{m}); err != nil {
				return err
			}
		}
	}
	for _, it := range in.Pending {
		var images sql.NullString
		if len(it.Images) > 0 {
			b, err := json.Marshal(it.Images)
			if err != nil {
				return fmt.Errorf("queued input %s: encode images: %w", it.ID, err)
			}
			images = sql.NullString{String: string(b), Valid: true}
		}
		created := it.Created
		if created.IsZero() {
			created = now
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO pending_inputs
			(session_id, item_id, kind, text, images, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			ss.ID, it.ID, string(it.Kind), it.Text, images, ms(created)); err != nil {
			return fmt.Errorf("queued input %s: %w", it.ID, err)
		}
	}
	return nil
}
