package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/steer-tui/steer/agent"
)

// AppendMessage appends msg to the session's transcript in one transaction
// that first checks that writerRunID is the session's active writer (else
// ErrStaleWriter, and nothing is written). It updates the session's counters,
// names an untitled session after its first user message and, when msg
// carries a QueueItemID, deletes that pending input in the same transaction.
func (s *Store) AppendMessage(ctx context.Context, sessionID, writerRunID string, msg agent.Message) error {
	return s.appendMessage(ctx, sessionID, writerRunID, msg, false)
}

// RetryAppendMessage is AppendMessage for a retry of one that failed. A
// failure does not always mean that nothing was written (a commit can land
// although the call reported an error), so when the transcript already ends
// with msg as writerRunID wrote it, that append is taken as done and nothing
// is written twice. Only a retry checks: two equal messages in a row are
// otherwise legitimate.
func (s *Store) RetryAppendMessage(ctx context.Context, sessionID, writerRunID string, msg agent.Message) error {
	return s.appendMessage(ctx, sessionID, writerRunID, msg, true)
}

func (s *Store) appendMessage(ctx context.Context, sessionID, writerRunID string, msg agent.Message, retry bool) error {
	enc, err := encodeMessages([]agent.Message{msg})
	if err != nil {
		return fmt.Errorf("append message to session %s: %w", sessionID, err)
	}
	now := s.now()
	err = s.write(ctx, func(tx *sql.Tx) error {
		if err := checkWriter(ctx, tx, sessionID, writerRunID); err != nil {
			return err
		}
		next, err := nextSeq(ctx, tx, sessionID)
		if err != nil {
			return err
		}
		if retry {
			if done, err := endsWith(ctx, tx, sessionID, writerRunID, next-1, enc[0]); err != nil || done {
				return err
			}
		}
		return appendEntries(ctx, tx, sessionID, writerRunID, next, []agent.Message{msg}, enc, now)
	})
	if err != nil {
		return fmt.Errorf("append message to session %s: %w", sessionID, err)
	}
	return nil
}

// endsWith reports whether the entry at seq last is enc, written by runID.
func endsWith(ctx context.Context, tx *sql.Tx, sessionID, runID string, last int, enc string) (bool, error) {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM transcript_entries
		WHERE session_id = ? AND seq = ? AND run_id = ? AND content = ?`, sessionID, last, runID, enc).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// RewriteTranscript replaces the whole transcript with msgs: the one write
// path for rewrites (compaction, truncation). It is fenced like AppendMessage.
// The token and cost totals are what the session has spent, so a rewrite
// leaves them alone; the message count becomes len(msgs).
func (s *Store) RewriteTranscript(ctx context.Context, sessionID, writerRunID string, msgs []agent.Message) error {
	enc, err := encodeMessages(msgs)
	if err != nil {
		return fmt.Errorf("rewrite transcript of session %s: %w", sessionID, err)
	}
	now := s.now()
	err = s.write(ctx, func(tx *sql.Tx) error {
		if err := checkWriter(ctx, tx, sessionID, writerRunID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM transcript_entries WHERE session_id = ?`, sessionID); err != nil {
			return err
		}
		if err := insertEntries(ctx, tx, sessionID, writerRunID, 1, msgs, enc, now); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET message_count = ?, updated_at = ?,
			title = CASE WHEN title = '' THEN ? ELSE title END WHERE id = ?`,
			len(msgs), ms(now), firstUserTitle(msgs), sessionID); err != nil {
			return err
		}
		return retireQueueItems(ctx, tx, sessionID, msgs)
	})
	if err != nil {
		return fmt.Errorf("rewrite transcript of session %s: %w", sessionID, err)
	}
	return nil
}

// LoadTranscript returns the session's transcript in order, or an error
// wrapping ErrNotFound when the session does not exist.
func (s *Store) LoadTranscript(ctx context.Context, sessionID string) ([]agent.Message, error) {
	d := newDecoder()
	err := s.scanEntries(ctx, sessionID, d.add)
	msgs, derr := d.finish()
	if err = errors.Join(err, derr); err != nil {
		return nil, s.classify(fmt.Errorf("load transcript of session %s: %w", sessionID, err))
	}
	if len(msgs) == 0 {
		if _, err := s.Session(ctx, sessionID); err != nil {
			return nil, fmt.Errorf("load transcript: %w", err)
		}
	}
	return msgs, nil
}

// scanEntries hands the stored JSON of every entry to add, in order.
func (s *Store) scanEntries(ctx context.Context, sessionID string, add func([]byte)) error {
	rows, err := s.reader.QueryContext(ctx,
		`SELECT content FROM transcript_entries WHERE session_id = ? ORDER BY seq`, sessionID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			return err
		}
		add(b)
	}
	return rows.Err()
}

// checkWriter is the fence: inside the write's transaction, runID must be the
// session's active writer.
func checkWriter(ctx context.Context, tx *sql.Tx, sessionID, runID string) error {
	var active sql.NullString
	err := tx.QueryRowContext(ctx,
		`SELECT active_writer_run_id FROM sessions WHERE id = ?`, sessionID).Scan(&active)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	if runID == "" || !active.Valid || active.String != runID {
		owner := "none"
		if active.Valid {
			owner = active.String
		}
		return fmt.Errorf("%w (run %q, active writer %s)", ErrStaleWriter, runID, owner)
	}
	return nil
}

// nextSeq is the sequence number the next entry takes.
func nextSeq(ctx context.Context, tx *sql.Tx, sessionID string) (int, error) {
	var next int
	err := tx.QueryRowContext(ctx,
		`SELECT COALESCE(MAX(seq), 0) + 1 FROM transcript_entries WHERE session_id = ?`, sessionID).Scan(&next)
	return next, err
}

// appendEntries inserts msgs from seq first on, adds them to the session's
// counters and retires the queue items they carry.
func appendEntries(ctx context.Context, tx *sql.Tx, sessionID, runID string, first int,
	msgs []agent.Message, enc []string, now time.Time) error {
	if err := insertEntries(ctx, tx, sessionID, runID, first, msgs, enc, now); err != nil {
		return err
	}
	var in, out int
	var cost float64
	for _, m := range msgs {
		if m.Role == agent.RoleAssistant {
			u := m.Usage
			in += u.Input + u.CacheRead + u.CacheWrite
			out += u.Output
			cost += u.Cost.Total
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE sessions SET
			message_count = message_count + ?, input_tokens = input_tokens + ?,
			output_tokens = output_tokens + ?, cost = cost + ?, updated_at = ?,
			title = CASE WHEN title = '' THEN ? ELSE title END
		WHERE id = ?`, len(msgs), in, out, cost, ms(now), firstUserTitle(msgs), sessionID); err != nil {
		return err
	}
	return retireQueueItems(ctx, tx, sessionID, msgs)
}

// insertEntries inserts msgs (encoded as enc) with consecutive sequence
// numbers from first on.
func insertEntries(ctx context.Context, tx *sql.Tx, sessionID, runID string, first int,
	msgs []agent.Message, enc []string, now time.Time) error {
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO transcript_entries
		(session_id, seq, role, content, stop_reason, input_tokens, output_tokens,
		 cache_read_tokens, cache_write_tokens, cost, run_id, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for i, m := range msgs {
		u := m.Usage
		if _, err := stmt.ExecContext(ctx, sessionID, first+i, string(m.Role), enc[i],
			string(m.StopReason), u.Input, u.Output, u.CacheRead, u.CacheWrite, u.Cost.Total,
			runID, ms(now)); err != nil {
			return err
		}
	}
	return nil
}

// retireQueueItems deletes the pending inputs that msgs deliver.
func retireQueueItems(ctx context.Context, tx *sql.Tx, sessionID string, msgs []agent.Message) error {
	for _, m := range msgs {
		if m.QueueItemID == "" {
			continue
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM pending_inputs WHERE session_id = ? AND item_id = ?`,
			sessionID, m.QueueItemID); err != nil {
			return err
		}
	}
	return nil
}

// firstUserTitle is the title the first user message with text gives, or "".
func firstUserTitle(msgs []agent.Message) string {
	for _, m := range msgs {
		if m.Role != agent.RoleUser {
			continue
		}
		if t := titleFrom(m.TextContent()); t != "" {
			return t
		}
	}
	return ""
}
