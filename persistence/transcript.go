package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
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
		at, err := appendPoint(ctx, tx, sessionID)
		if err != nil {
			return err
		}
		if retry {
			if done, err := endsWith(ctx, tx, sessionID, writerRunID, at.leaf, enc[0]); err != nil || done {
				return err
			}
		}
		return appendEntries(ctx, tx, sessionID, writerRunID, at, []agent.Message{msg}, enc, now)
	})
	if err != nil {
		return fmt.Errorf("append message to session %s: %w", sessionID, err)
	}
	return nil
}

// endsWith reports whether the entry at seq last is the message enc, written
// by runID.
func endsWith(ctx context.Context, tx *sql.Tx, sessionID, runID string, last int, enc string) (bool, error) {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM transcript_entries
		WHERE session_id = ? AND seq = ? AND run_id = ? AND kind = 'message' AND content = ?`, sessionID, last, runID, enc).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// RewriteTranscript makes msgs what the model sees from now on (a
// compaction, a truncation) without deleting anything: it appends a context
// entry holding msgs under the leaf, and every entry before it stays in the
// session's history. It is fenced like AppendMessage. The token and cost
// totals are what the session has spent and the message count is its
// history's, so a rewrite leaves them alone.
func (s *Store) RewriteTranscript(ctx context.Context, sessionID, writerRunID string, msgs []agent.Message) error {
	enc, err := encodeMessages(msgs)
	if err != nil {
		return fmt.Errorf("rewrite transcript of session %s: %w", sessionID, err)
	}
	content := "[" + strings.Join(enc, ",") + "]"
	now := s.now()
	err = s.write(ctx, func(tx *sql.Tx) error {
		if err := checkWriter(ctx, tx, sessionID, writerRunID); err != nil {
			return err
		}
		at, err := appendPoint(ctx, tx, sessionID)
		if err != nil {
			return err
		}
		if err := insertContext(ctx, tx, sessionID, writerRunID, at, content, now); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET leaf_seq = ?, updated_at = ?,
			title = CASE WHEN title = '' THEN ? ELSE title END WHERE id = ?`,
			at.next, ms(now), firstUserTitle(msgs), sessionID); err != nil {
			return err
		}
		return retireQueueItems(ctx, tx, sessionID, msgs)
	})
	if err != nil {
		return fmt.Errorf("rewrite transcript of session %s: %w", sessionID, err)
	}
	return nil
}

// LoadTranscript returns what the model sees of the session: the messages
// of its path root → leaf from the latest context entry on (see
// RewriteTranscript), or an error wrapping ErrNotFound when the session does
// not exist. LoadHistory returns everything.
func (s *Store) LoadTranscript(ctx context.Context, sessionID string) ([]agent.Message, error) {
	msgs, _, err := s.loadContext(ctx, sessionID)
	return msgs, err
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

// appendAt is where the next entry goes: its sequence number and its
// parent, the session's leaf (0 while the session has no entry).
type appendAt struct{ next, leaf int }

// appendPoint reads where the next entry of the session goes.
func appendPoint(ctx context.Context, tx *sql.Tx, sessionID string) (appendAt, error) {
	var at appendAt
	err := tx.QueryRowContext(ctx, `SELECT
		(SELECT COALESCE(MAX(seq), 0) + 1 FROM transcript_entries WHERE session_id = ?),
		(SELECT COALESCE(leaf_seq, 0) FROM sessions WHERE id = ?)`, sessionID, sessionID).Scan(&at.next, &at.leaf)
	return at, err
}

// appendEntries inserts msgs as a chain under at's leaf, moves the leaf to
// the last of them, adds them to the session's counters and retires the
// queue items they carry.
func appendEntries(ctx context.Context, tx *sql.Tx, sessionID, runID string, at appendAt,
	msgs []agent.Message, enc []string, now time.Time) error {
	if err := insertEntries(ctx, tx, sessionID, runID, at, msgs, enc, now); err != nil {
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
			output_tokens = output_tokens + ?, cost = cost + ?, updated_at = ?, leaf_seq = ?,
			title = CASE WHEN title = '' THEN ? ELSE title END
		WHERE id = ?`, len(msgs), in, out, cost, ms(now), at.next+len(msgs)-1, firstUserTitle(msgs), sessionID); err != nil {
		return err
	}
	return retireQueueItems(ctx, tx, sessionID, msgs)
}

// insertEntries inserts msgs (encoded as enc) as message entries with
// consecutive sequence numbers from at.next on, each the child of the one
// before and the first the child of at.leaf.
func insertEntries(ctx context.Context, tx *sql.Tx, sessionID, runID string, at appendAt,
	msgs []agent.Message, enc []string, now time.Time) error {
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO transcript_entries
		(session_id, seq, parent_seq, kind, role, content, stop_reason, input_tokens, output_tokens,
		 cache_read_tokens, cache_write_tokens, cost, run_id, created_at)
		VALUES (?, ?, ?, 'message', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	parent := at.leaf
	for i, m := range msgs {
		u := m.Usage
		seq := at.next + i
		if _, err := stmt.ExecContext(ctx, sessionID, seq, nullSeq(parent), string(m.Role), enc[i],
			string(m.StopReason), u.Input, u.Output, u.CacheRead, u.CacheWrite, u.Cost.Total,
			runID, ms(now)); err != nil {
			return err
		}
		parent = seq
	}
	return indexMessages(ctx, tx, sessionID, at.next, msgs)
}

// insertContext inserts a context entry holding content (a JSON array of
// messages) at at.
func insertContext(ctx context.Context, tx *sql.Tx, sessionID, runID string, at appendAt, content string, now time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO transcript_entries
		(session_id, seq, parent_seq, kind, role, content, run_id, created_at)
		VALUES (?, ?, ?, 'context', '', ?, ?, ?)`, sessionID, at.next, nullSeq(at.leaf), content, runID, ms(now))
	return err
}

// nullSeq is a parent sequence number for the database: NULL for the root's.
func nullSeq(seq int) sql.NullInt64 { return sql.NullInt64{Int64: int64(seq), Valid: seq > 0} }

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
