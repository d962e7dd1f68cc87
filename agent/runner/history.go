package runner

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/persistence"
)

// HistoryKind says what a history entry holds.
type HistoryKind string

const (
	// HistoryMessage is one message of the conversation.
	HistoryMessage HistoryKind = "message"
	// HistoryContext marks a compaction or a truncation: from it on the
	// model sees Context instead of the entries before it, which stay.
	HistoryContext HistoryKind = "context"
)

// HistoryEntry is one entry of a saved session's history: everything the
// user wrote and saw, never rewritten. IDs are stable within the session;
// ParentID is "" for the first entry.
type HistoryEntry struct {
	ID, ParentID string
	Kind         HistoryKind
	Message      agent.Message   // a HistoryMessage's
	Context      []agent.Message // a HistoryContext's
	Created      time.Time
}

// History is session id's whole history, the path to its latest entry, or
// ErrNoSavedSession.
func (v *StateView) History(ctx context.Context, id string) ([]HistoryEntry, error) {
	entries, err := v.store.LoadHistory(ctx, id)
	if errors.Is(err, persistence.ErrNotFound) {
		return nil, ErrNoSavedSession
	}
	if err != nil {
		return nil, err
	}
	return historyOf(entries), nil
}

// historyOf is the store's entries in the runner's words.
func historyOf(entries []persistence.Entry) []HistoryEntry {
	out := make([]HistoryEntry, len(entries))
	for i, e := range entries {
		out[i] = HistoryEntry{ID: entryID(e.Seq), ParentID: entryID(e.Parent), Kind: HistoryMessage,
			Message: e.Message, Context: e.Context, Created: e.Created}
		if e.Kind == persistence.EntryContext {
			out[i].Kind = HistoryContext
		}
	}
	return out
}

// entryID names an entry by its sequence number; 0 (no entry) is "".
func entryID(seq int) string {
	if seq == 0 {
		return ""
	}
	return strconv.Itoa(seq)
}

// NewInContext are the messages of a context entry that the history before
// it does not hold: a compaction's summary, not the messages it kept. A
// message is the same one when its role, time and tool call id are (a
// truncation keeps them while it shortens the content).
func NewInContext(before []HistoryEntry, ctxMsgs []agent.Message) []agent.Message {
	type identity struct {
		role agent.Role
		at   int64
		call string
	}
	seen := map[identity]bool{}
	for _, e := range before {
		if e.Kind == HistoryMessage {
			seen[identity{e.Message.Role, e.Message.Timestamp.UnixMilli(), e.Message.ToolCallID}] = true
		}
	}
	var out []agent.Message
	for _, m := range ctxMsgs {
		if !seen[identity{m.Role, m.Timestamp.UnixMilli(), m.ToolCallID}] {
			out = append(out, m)
		}
	}
	return out
}
