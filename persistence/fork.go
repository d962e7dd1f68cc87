package persistence

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// ForkSession creates session ss whose transcript is a copy of session
// from's path root → entry at (0: an empty transcript), as one branch: what
// /fork and /clone start from. The new session records where it came from,
// is claimed for this store, and its messages are in the search index; the
// session forked from is only read. Labels on entries outside the path are
// left behind, and the others name their entry's copy.
func (s *Store) ForkSession(ctx context.Context, from string, at int, ss Session) error {
	if ss.ID == "" || ss.ID == from {
		return fmt.Errorf("fork session %s: the new session needs an id of its own", from)
	}
	if s.writer == nil {
		return fmt.Errorf("fork session %s: %w", from, ErrReadOnly)
	}
	now := s.now()
	if ss.Created.IsZero() {
		ss.Created = now
	}
	s.claimsMu.Lock()
	defer s.claimsMu.Unlock()
	if held, err := s.heldLocked(ss.ID); err != nil || held != nil {
		return errors.Join(err, fmt.Errorf("fork session %s: session %s exists", from, ss.ID))
	}
	_, err := s.claimLocked(ctx, ss.ID, func(tx *sql.Tx) error {
		rows, err := forkedPath(ctx, tx, from, at)
		if err != nil {
			return err
		}
		var count, in, out int
		var cost float64
		for _, r := range rows {
			if r.kind == EntryMessage {
				count++
			}
			in, out, cost = in+r.in, out+r.out, cost+r.cost
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (`+sessionColumns+`, forked_from, forked_at, leaf_seq)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			ss.ID, ss.Workspace, ss.Title, ss.Model, "", ms(ss.Created), ms(ss.Created),
			count, in, out, cost, from, at, nullSeq(len(rows))); err != nil {
			return err
		}
		return copyEntries(ctx, tx, from, ss.ID, rows)
	})
	if err != nil {
		return s.classify(fmt.Errorf("fork session %s at entry %d: %w", from, at, err))
	}
	return nil
}

// forkRow is one entry of the path a fork copies; seq is the original's.
type forkRow struct {
	seq     int
	kind    EntryKind
	content string
	in, out int
	cost    float64
}

// forkedPath reads the rows of from's path root → at, labels of entries
// off the path left out.
func forkedPath(ctx context.Context, tx *sql.Tx, from string, at int) ([]forkRow, error) {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM sessions WHERE id = ?`, from).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("session %s: %w", from, ErrNotFound)
	}
	if err != nil || at == 0 {
		return nil, err
	}
	nodes, err := readNodes(ctx, tx, from)
	if err != nil {
		return nil, err
	}
	if _, ok := nodes[at]; !ok {
		return nil, fmt.Errorf("entry %d: %w", at, ErrNoEntry)
	}
	path, err := pathTo(nodes, at)
	if err != nil {
		return nil, err
	}
	onPath := make(map[int]bool, len(path))
	for _, seq := range path {
		onPath[seq] = true
	}
	rows := make([]forkRow, 0, len(path))
	for _, seq := range path {
		var r forkRow
		var role string
		if err := tx.QueryRowContext(ctx, `SELECT seq, kind, content, role, input_tokens + cache_read_tokens + cache_write_tokens, output_tokens, cost
			FROM transcript_entries WHERE session_id = ? AND seq = ?`, from, seq).Scan(&r.seq, &r.kind, &r.content, &role, &r.in, &r.out, &r.cost); err != nil {
			return nil, err
		}
		if r.kind == EntryRewind {
			continue // it names entries and a leaf of the session forked from, not of the fork
		}
		if r.kind == EntryLabel {
			var m Marker
			if err := json.Unmarshal([]byte(r.content), &m); err != nil {
				return nil, fmt.Errorf("decode label entry %d: %w", seq, err)
			}
			if !onPath[m.Target] {
				continue
			}
		}
		if role != "assistant" {
			r.in, r.out, r.cost = 0, 0, 0
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// copyEntries writes rows into session to as a chain numbered from 1, with
// their search rows, and labels renumbered to the copies.
func copyEntries(ctx context.Context, tx *sql.Tx, from, to string, rows []forkRow) error {
	copied := make(map[int]int, len(rows)) // original seq → the copy's
	for i, r := range rows {
		seq := i + 1
		copied[r.seq] = seq
		content := r.content
		if r.kind == EntryLabel {
			var m Marker
			if err := json.Unmarshal([]byte(content), &m); err != nil {
				return err
			}
			m.Target = copied[m.Target]
			data, err := json.Marshal(m)
			if err != nil {
				return err
			}
			content = string(data)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO transcript_entries
			(session_id, seq, parent_seq, kind, role, content, stop_reason, input_tokens, output_tokens,
			 cache_read_tokens, cache_write_tokens, cost, run_id, created_at)
			SELECT ?, ?, ?, kind, role, ?, stop_reason, input_tokens, output_tokens,
			 cache_read_tokens, cache_write_tokens, cost, '', created_at
			FROM transcript_entries WHERE session_id = ? AND seq = ?`,
			to, seq, nullSeq(i), content, from, r.seq); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO transcript_search (session_id, seq, body)
			SELECT ?, ?, body FROM transcript_search WHERE session_id = ? AND seq = ?`, to, seq, from, r.seq); err != nil {
			return err
		}
	}
	return nil
}
