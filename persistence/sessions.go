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
	Name      string // what the user named it (SetSessionName); empty for none
	Model     string
	ParentID  string // the session that delegated to this sub-agent (SPEC §7); empty for a top-level one
	// ForkedFrom is the session this one was forked or cloned from, at its
	// entry ForkedAt; empty for none. Read, never written: ForkSession sets it.
	ForkedFrom string
	ForkedAt   int
	Created    time.Time
	Updated    time.Time // the last transcript write

	// MessageCount is the length of the transcript.
	MessageCount int
	// InputTokens counts every prompt-side token the session was billed for
	// (input, cache read and cache write); OutputTokens the generated ones.
	InputTokens  int
	OutputTokens int
	// Cost is the session's total spend in US dollars.
	Cost float64

	// Owner is the live process that owns the session (see ClaimSession),
	// this one included; the zero Owner when no live process does. It is
	// read, never written: CreateSession ignores it.
	Owner Owner
}

// ListOptions selects sessions for ListSessions.
type ListOptions struct {
	// Workspace keeps only that workspace's sessions; empty means all.
	Workspace string
	// Limit caps the result; 0 means no cap.
	Limit int
	// Unowned keeps only the sessions that no live process owns, this one
	// included; Limit counts what is kept.
	Unowned bool
}

// sessionColumns are the columns of a new session's row.
const sessionColumns = `id, workspace, title, model, parent_id, created_at, updated_at,
	message_count, input_tokens, output_tokens, cost`

// sessionSelect reads what scanSession scans: a session and its recorded
// owner, from sessions s.
const sessionSelect = `SELECT s.id, s.workspace, s.title, s.name, s.model, s.parent_id, s.forked_from, s.forked_at, s.created_at, s.updated_at,
	s.message_count, s.input_tokens, s.output_tokens, s.cost, o.pid, o.host, o.claimed_at
	FROM sessions s LEFT JOIN session_owners o ON o.session_id = s.id`

// scanSession reads one row of sessionSelect.
func scanSession(row interface{ Scan(...any) error }) (Session, ownerRecord, error) {
	var ss Session
	var rec ownerRecord
	var created, updated int64
	err := row.Scan(&ss.ID, &ss.Workspace, &ss.Title, &ss.Name, &ss.Model, &ss.ParentID, &ss.ForkedFrom, &ss.ForkedAt, &created, &updated,
		&ss.MessageCount, &ss.InputTokens, &ss.OutputTokens, &ss.Cost, &rec.pid, &rec.host, &rec.since)
	ss.Created, ss.Updated = fromMS(created), fromMS(updated)
	return ss, rec, err
}

// CreateSession records a new session and claims it for this store (see
// ClaimSession), in one transaction with the claim's record. A zero Created
// is now and a zero Updated is Created; the counters start from the given
// values (normally 0).
func (s *Store) CreateSession(ctx context.Context, ss Session) error {
	if ss.ID == "" {
		return errors.New("create session: empty id")
	}
	if s.writer == nil {
		return fmt.Errorf("create session %s: %w", ss.ID, ErrReadOnly)
	}
	if ss.Created.IsZero() {
		ss.Created = s.now()
	}
	if ss.Updated.IsZero() {
		ss.Updated = ss.Created
	}
	insert := func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO sessions (`+sessionColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			ss.ID, ss.Workspace, ss.Title, ss.Model, ss.ParentID, ms(ss.Created), ms(ss.Updated),
			ss.MessageCount, ss.InputTokens, ss.OutputTokens, ss.Cost)
		return err
	}
	s.claimsMu.Lock()
	defer s.claimsMu.Unlock()
	c, err := s.heldLocked(ss.ID)
	switch {
	case err != nil:
	case c != nil: // held already, so the session exists: the insert says so
		err = s.write(ctx, insert)
	default:
		_, err = s.claimLocked(ctx, ss.ID, insert)
	}
	if err != nil {
		return fmt.Errorf("create session %s: %w", ss.ID, err)
	}
	return nil
}

// Session returns the session id, or an error wrapping ErrNotFound.
func (s *Store) Session(ctx context.Context, id string) (Session, error) {
	ss, rec, err := scanSession(s.reader.QueryRowContext(ctx, sessionSelect+` WHERE s.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, fmt.Errorf("session %s: %w", id, ErrNotFound)
	}
	if err == nil {
		ss.Owner, err = s.liveOwner(id, rec)
	}
	if err != nil {
		return Session{}, s.classify(fmt.Errorf("session %s: %w", id, err))
	}
	return ss, nil
}

// ListSessions returns sessions most recently updated first, each with its
// live owner. It may be called on a read-only store.
func (s *Store) ListSessions(ctx context.Context, opts ListOptions) ([]Session, error) {
	q := sessionSelect
	var args []any
	if opts.Workspace != "" {
		q += ` WHERE s.workspace = ?`
		args = append(args, opts.Workspace)
	}
	// rowid breaks ties between sessions updated in the same millisecond in
	// favour of the one created later.
	q += ` ORDER BY s.updated_at DESC, s.rowid DESC`
	if opts.Limit > 0 && !opts.Unowned {
		q += ` LIMIT ?`
		args = append(args, opts.Limit)
	}
	listed, recs, err := s.querySessions(ctx, q, args...)
	if err != nil {
		return nil, s.classify(fmt.Errorf("list sessions: %w", err))
	}
	// The owners are tested once the rows are closed: a claim may be waiting
	// for a read connection while it holds what liveOwner needs.
	var out []Session
	for i, ss := range listed {
		if opts.Limit > 0 && len(out) == opts.Limit {
			break
		}
		if ss.Owner, err = s.liveOwner(ss.ID, recs[i]); err != nil {
			return nil, s.classify(fmt.Errorf("list sessions: %w", err))
		}
		if opts.Unowned && ss.Owner.Live() {
			continue
		}
		out = append(out, ss)
	}
	return out, nil
}

// querySessions runs a sessionSelect query and returns its rows.
func (s *Store) querySessions(ctx context.Context, q string, args ...any) ([]Session, []ownerRecord, error) {
	rows, err := s.reader.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var list []Session
	var recs []ownerRecord
	for rows.Next() {
		ss, rec, err := scanSession(rows)
		if err != nil {
			return nil, nil, err
		}
		list, recs = append(list, ss), append(recs, rec)
	}
	return list, recs, rows.Err()
}

// LatestSession returns the workspace's most recently updated session, or an
// error wrapping ErrNotFound when it has none.
func (s *Store) LatestSession(ctx context.Context, workspace string) (Session, error) {
	return s.firstListed(ctx, ListOptions{Workspace: workspace, Limit: 1})
}

// LatestUnownedSession is LatestSession among the sessions that no live
// process owns. To resume that session, ClaimLatestSession picks and claims
// it in one step.
func (s *Store) LatestUnownedSession(ctx context.Context, workspace string) (Session, error) {
	return s.firstListed(ctx, ListOptions{Workspace: workspace, Limit: 1, Unowned: true})
}

// firstListed is the first session ListSessions gives, or ErrNotFound.
func (s *Store) firstListed(ctx context.Context, opts ListOptions) (Session, error) {
	list, err := s.ListSessions(ctx, opts)
	if err != nil {
		return Session{}, err
	}
	if len(list) == 0 {
		return Session{}, fmt.Errorf("latest session of workspace %s: %w", opts.Workspace, ErrNotFound)
	}
	return list[0], nil
}

// SetSessionTitle renames a session. It does not count as activity, so the
// session keeps its place in the list.
func (s *Store) SetSessionTitle(ctx context.Context, id, title string) error {
	return s.setSessionField(ctx, id, "title", title)
}

// SetSessionName names a session (an empty name removes it). Like a
// title, it does not count as activity.
func (s *Store) SetSessionName(ctx context.Context, id, name string) error {
	return s.setSessionField(ctx, id, "name", name)
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
