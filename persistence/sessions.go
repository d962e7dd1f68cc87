package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// maxTitleRunes bounds a title taken from the first user message.
const maxTitleRunes = 60

// Session is one conversation and its running totals.
type Session struct {
	ID        string
	Workspace string // the working directory the session belongs to
	Title     string // empty until the first user message names it
	Model     string
	Created   time.Time
	Updated   time.Time // the last transcript write

	// MessageCount is the length of the transcript.
	MessageCount int
	// InputTokens counts every prompt-side token the session was billed for
	// (input, cache read and cache write); OutputTokens the generated ones.
	InputTokens  int
	OutputTokens int
	// Cost is the session's total spend in US dollars.
	Cost float64
}

// ListOptions selects sessions for ListSessions.
type ListOptions struct {
	// Workspace keeps only that workspace's sessions; empty means all.
	Workspace string
	// Limit caps the result; 0 means no cap.
	Limit int
}

// sessionColumns are the columns scanSession reads, in its order.
const sessionColumns = `id, workspace, title, model, created_at, updated_at,
	message_count, input_tokens, output_tokens, cost`

// scanSession reads one row of sessionColumns.
func scanSession(row interface{ Scan(...any) error }) (Session, error) {
	var ss Session
	var created, updated int64
	err := row.Scan(&ss.ID, &ss.Workspace, &ss.Title, &ss.Model, &created, &updated,
		&ss.MessageCount, &ss.InputTokens, &ss.OutputTokens, &ss.Cost)
	ss.Created, ss.Updated = fromMS(created), fromMS(updated)
	return ss, err
}

// CreateSession records a new session. A zero Created is now and a zero
// Updated is Created; the counters start from the given values (normally 0).
func (s *Store) CreateSession(ctx context.Context, ss Session) error {
	if ss.ID == "" {
		return errors.New("create session: empty id")
	}
	if ss.Created.IsZero() {
		ss.Created = s.now()
	}
	if ss.Updated.IsZero() {
		ss.Updated = ss.Created
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO sessions (`+sessionColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			ss.ID, ss.Workspace, ss.Title, ss.Model, ms(ss.Created), ms(ss.Updated),
			ss.MessageCount, ss.InputTokens, ss.OutputTokens, ss.Cost)
		return err
	})
	if err != nil {
		return fmt.Errorf("create session %s: %w", ss.ID, err)
	}
	return nil
}

// Session returns the session id, or an error wrapping ErrNotFound.
func (s *Store) Session(ctx context.Context, id string) (Session, error) {
	ss, err := scanSession(s.reader.QueryRowContext(ctx,
		`SELECT `+sessionColumns+` FROM sessions WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, fmt.Errorf("session %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Session{}, fmt.Errorf("session %s: %w", id, err)
	}
	return ss, nil
}

// ListSessions returns sessions most recently updated first.
func (s *Store) ListSessions(ctx context.Context, opts ListOptions) ([]Session, error) {
	q := `SELECT ` + sessionColumns + ` FROM sessions`
	var args []any
	if opts.Workspace != "" {
		q += ` WHERE workspace = ?`
		args = append(args, opts.Workspace)
	}
	// rowid breaks ties between sessions updated in the same millisecond in
	// favour of the one created later.
	q += ` ORDER BY updated_at DESC, rowid DESC`
	if opts.Limit > 0 {
		q += ` LIMIT ?`
		args = append(args, opts.Limit)
	}
	rows, err := s.reader.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	var out []Session
	for rows.Next() {
		ss, err := scanSession(rows)
		if err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		out = append(out, ss)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	return out, nil
}

// LatestSession returns the workspace's most recently updated session, or an
// error wrapping ErrNotFound when it has none.
func (s *Store) LatestSession(ctx context.Context, workspace string) (Session, error) {
	list, err := s.ListSessions(ctx, ListOptions{Workspace: workspace, Limit: 1})
	if err != nil {
		return Session{}, err
	}
	if len(list) == 0 {
		return Session{}, fmt.Errorf("latest session of workspace %s: %w", workspace, ErrNotFound)
	}
	return list[0], nil
}

// SetSessionTitle renames a session. It does not count as activity, so the
// session keeps its place in the list.
func (s *Store) SetSessionTitle(ctx context.Context, id, title string) error {
	return s.setSessionField(ctx, id, "title", title)
}

// SetSessionModel records the model a session uses from now on.
func (s *Store) SetSessionModel(ctx context.Context, id, model string) error {
	return s.setSessionField(ctx, id, "model", model)
}

// setSessionField sets one text column; column is one of our constants.
func (s *Store) setSessionField(ctx context.Context, id, column, value string) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE sessions SET `+column+` = ? WHERE id = ?`, value, id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return errors.Join(err, ErrNotFound)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("set %s of session %s: %w", column, id, err)
	}
	return nil
}

// titleFrom turns a user message's text into a one-line title of at most
// maxTitleRunes runes.
func titleFrom(text string) string {
	t := strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(t) <= maxTitleRunes {
		return t
	}
	r := []rune(t)
	return strings.TrimRight(string(r[:maxTitleRunes-1]), " ") + "…"
}
