package runner

import (
	"context"
	"strings"
	"time"

	"github.com/steer-tui/steer/persistence"
)

// PromptKind is how the editor sent an item of the prompt history.
type PromptKind string

// The kinds of a Prompt.
const (
	PromptNew      PromptKind = persistence.PromptKindPrompt   // a new prompt, or a slash command
	PromptSteer    PromptKind = persistence.PromptKindSteer    // steering while a run was active
	PromptFollowUp PromptKind = persistence.PromptKindFollowUp // a follow-up
)

// Prompt is one item the user sent from the editor, as the prompt history
// keeps it for ↑ and Ctrl+R.
type Prompt struct {
	// ID orders the history across processes: a later append has a larger
	// one. It is 0 until the item is saved (and always without a store).
	ID   int64
	Kind PromptKind
	// Text is as the editor held it, paste placeholders and all; Pastes are
	// what the placeholders stand for.
	Text    string
	Pastes  []Paste
	Created time.Time
}

// Paste is a large paste a placeholder of a Prompt stands for.
type Paste struct{ Label, Text string }

// PromptHistory is a workspace's latest prompts, newest first.
type PromptHistory struct {
	Workspace string
	Prompts   []Prompt
}

// PromptHistoryLimit is how many of the newest prompts PromptHistory reads:
// what ↑ walks through. Ctrl+R searches the rest with SearchPrompts.
const PromptHistoryLimit = 1000

// PromptHistory reads the workspace's latest PromptHistoryLimit prompts,
// which every steer process in the workspace appends to. Without a store the
// history is empty: the front end keeps what it sent itself.
func (b *sessionBook) PromptHistory(ctx context.Context) (PromptHistory, error) {
	h := PromptHistory{Workspace: b.workspace}
	if b.store == nil {
		return h, nil
	}
	saved, err := b.store.Prompts(ctx, b.workspace, PromptHistoryLimit)
	if err != nil {
		return h, err
	}
	h.Prompts = promptsOf(saved)
	return h, nil
}

// AddPrompt appends p to the workspace's prompt history and returns it as
// saved, with its ID. Empty text and an unknown kind are refused. Without a
// store nothing is saved and p comes back as it was.
func (b *sessionBook) AddPrompt(ctx context.Context, p Prompt) (Prompt, error) {
	if p.Created.IsZero() && b.now != nil {
		p.Created = b.now()
	}
	if b.store == nil {
		return p, nil
	}
	saved := persistence.Prompt{Workspace: b.workspace, Kind: string(p.Kind), Text: p.Text, Created: p.Created}
	for _, ps := range p.Pastes {
		saved.Pastes = append(saved.Pastes, persistence.Paste{Label: ps.Label, Text: ps.Text})
	}
	id, err := b.store.AppendPrompt(ctx, saved)
	if err != nil {
		return p, err
	}
	p.ID = id
	return p, nil
}

// SearchPrompts returns the workspace's prompts whose text holds query
// (PromptMatches), newest first, at most limit, older than prompt before
// when it is not 0.
func (b *sessionBook) SearchPrompts(ctx context.Context, query string, before int64, limit int) ([]Prompt, error) {
	if b.store == nil {
		return nil, nil
	}
	saved, err := b.store.SearchPrompts(ctx, b.workspace, query, before, limit)
	if err != nil {
		return nil, err
	}
	return promptsOf(saved), nil
}

// PromptMatches is SearchPrompts' rule, for a front end that searches what
// it holds already: text holds query, ASCII letters matching in either case
// (as the store's LIKE does).
func PromptMatches(text, query string) bool {
	return strings.Contains(asciiLower(text), asciiLower(query))
}

// asciiLower lowers the ASCII letters of s and leaves every other byte.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func promptsOf(saved []persistence.Prompt) []Prompt {
	out := make([]Prompt, len(saved))
	for i, s := range saved {
		out[i] = Prompt{ID: s.ID, Kind: PromptKind(s.Kind), Text: s.Text, Created: s.Created}
		for _, ps := range s.Pastes {
			out[i].Pastes = append(out[i].Pastes, Paste{Label: ps.Label, Text: ps.Text})
		}
	}
	return out
}
