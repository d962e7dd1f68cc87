package persistence

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// The kinds of a prompt in the history: how the editor sent it.
const (
	PromptKindPrompt   = "prompt"    // a new prompt (or a slash command)
	PromptKindSteer    = "steer"     // steering while a run was active
	PromptKindFollowUp = "follow_up" // a follow-up
)

// Prompt is one item the user sent from the editor (migration 0015).
type Prompt struct {
	ID        int64 // assigned by AppendPrompt; grows with every append, in every process
	Workspace string
	Kind      string // PromptKindPrompt, PromptKindSteer or PromptKindFollowUp
	// Text is as the editor held it, paste placeholders and all.
	Text string
	// Pastes are what the placeholders in Text stand for.
	Pastes  []Paste
	Created time.Time
}

// Paste is a large paste a placeholder of a Prompt stands for.
type Paste struct {
	Label string `json:"label"` // the placeholder, as it appears in the text
	Text  string `json:"text"`
}

// AppendPrompt adds p to its workspace's history and returns its id. Created
// zero is now. It is one INSERT, so processes appending at once wait for
// each other no longer than any single write; nothing is ever removed.
func (s *Store) AppendPrompt(ctx context.Context, p Prompt) (int64, error) {
	if err := checkPrompt(p); err != nil {
		return 0, err
	}
	if p.Created.IsZero() {
		p.Created = s.now()
	}
	pastes := p.Pastes
	if pastes == nil {
		pastes = []Paste{}
	}
	body, err := json.Marshal(pastes)
	if err != nil {
		return 0, fmt.Errorf("append to the prompt history: %w", err)
	}
	var id int64
	err = s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO prompt_history (workspace, kind, text, pastes, created_at)
			VALUES (?, ?, ?, ?, ?)`, p.Workspace, p.Kind, p.Text, string(body), ms(p.Created))
		if err != nil {
			return err
		}
		id, err = res.LastInsertId()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("append to the prompt history of %s: %w", p.Workspace, err)
	}
	return id, nil
}

// checkPrompt refuses what the history has no use for: empty text, an
// unknown kind.
func checkPrompt(p Prompt) error {
	switch {
	case strings.TrimSpace(p.Text) == "":
		return errors.New("append to the prompt history: the text is empty")
	case p.Kind != PromptKindPrompt && p.Kind != PromptKindSteer && p.Kind != PromptKindFollowUp:
		return fmt.Errorf("append to the prompt history: unknown kind %q (want %s, %s or %s)",
			p.Kind, PromptKindPrompt, PromptKindSteer, PromptKindFollowUp)
	}
	return nil
}

// Prompts returns the workspace's latest limit prompts, newest first.
func (s *Store) Prompts(ctx context.Context, workspace string, limit int) ([]Prompt, error) {
	if limit <= 0 {
		return nil, nil
	}
	rows, err := s.reader.QueryContext(ctx, `SELECT id, workspace, kind, text, pastes, created_at FROM prompt_history
		WHERE workspace = ? ORDER BY id DESC LIMIT ?`, workspace, limit)
	if err != nil {
		return nil, s.classify(fmt.Errorf("read the prompt history of %s: %w", workspace, err))
	}
	out, err := scanPrompts(rows)
	if err != nil {
		return nil, s.classify(fmt.Errorf("read the prompt history of %s: %w", workspace, err))
	}
	return out, nil
}

// SearchPrompts returns the workspace's prompts whose text holds query, newest
// first, at most limit of them, only those older than prompt before when it
// is not 0 (the next page of a search). The text is searched as the editor
// held it (a paste's placeholder, not its content); ASCII letters match in
// either case, as SQLite's LIKE does, and query is taken literally.
func (s *Store) SearchPrompts(ctx context.Context, workspace, query string, before int64, limit int) ([]Prompt, error) {
	if limit <= 0 {
		return nil, nil
	}
	rows, err := s.reader.QueryContext(ctx, `SELECT id, workspace, kind, text, pastes, created_at FROM prompt_history
		WHERE workspace = ? AND (? = 0 OR id < ?) AND text LIKE ? ESCAPE '\' ORDER BY id DESC LIMIT ?`,
		workspace, before, before, "%"+likeEscape(query)+"%", limit)
	if err != nil {
		return nil, s.classify(fmt.Errorf("search the prompt history of %s: %w", workspace, err))
	}
	out, err := scanPrompts(rows)
	if err != nil {
		return nil, s.classify(fmt.Errorf("search the prompt history of %s: %w", workspace, err))
	}
	return out, nil
}

func scanPrompts(rows *sql.Rows) ([]Prompt, error) {
	defer rows.Close()
	var out []Prompt
	for rows.Next() {
		var (
			p       Prompt
			pastes  string
			created int64
		)
		if err := rows.Scan(&p.ID, &p.Workspace, &p.Kind, &p.Text, &pastes, &created); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(pastes), &p.Pastes); err != nil {
			return nil, fmt.Errorf("prompt %d: its pastes: %w", p.ID, err)
		}
		if len(p.Pastes) == 0 {
			p.Pastes = nil
		}
		p.Created = fromMS(created)
		out = append(out, p)
	}
	return out, rows.Err()
}
