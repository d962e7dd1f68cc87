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
	// HistoryLabel names the entry Target with Label ("" removes it).
	HistoryLabel HistoryKind = "label"
	// HistoryBranchSummary is Summary of a branch the user left (/tree):
	// the model sees it as a user message (BranchSummaryMessage).
	HistoryBranchSummary HistoryKind = "branch_summary"
	// HistoryModelChange and HistoryThinkingChange record that the session
	// went on with Model or Thinking.
	HistoryModelChange    HistoryKind = "model_change"
	HistoryThinkingChange HistoryKind = "thinking_change"
	// HistoryApprovalChange records the tool approval mode Approval the
	// session uses on.
	HistoryApprovalChange HistoryKind = "approval_change"
	// HistoryRewind records a rewind to before user message Target: Scope
	// says what went back (code, conversation or both, or redo), Files how
	// many files were restored (rewind.go).
	HistoryRewind HistoryKind = "rewind"
)

// HistoryEntry is one entry of a saved session's history: everything the
// user wrote and saw, never rewritten. IDs are stable within the session;
// ParentID is "" for the first entry.
type HistoryEntry struct {
	ID, ParentID string
	Kind         HistoryKind
	Message      agent.Message   // a HistoryMessage's
	Context      []agent.Message // a HistoryContext's
	// A marker's: what it says (see the kinds).
	Target, Label, Summary, Model, Thinking string
	Approval                                string
	Scope                                   string
	Files                                   int
	Created                                 time.Time
}

// InContext is how the model sees e where it follows the context's start:
// a message as itself, a branch summary as a user message; other markers
// not at all.
func (e HistoryEntry) InContext() (agent.Message, bool) {
	switch e.Kind {
	case HistoryMessage:
		return e.Message, true
	case HistoryBranchSummary:
		return persistence.BranchSummaryMessage(persistence.Entry{Created: e.Created,
			Marker: persistence.Marker{Summary: e.Summary}}), true
	}
	return agent.Message{}, false
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
		out[i] = HistoryEntry{ID: entryID(e.Seq), ParentID: entryID(e.Parent), Kind: HistoryKind(e.Kind),
			Message: e.Message, Context: e.Context, Created: e.Created,
			Target: entryID(e.Marker.Target), Label: e.Marker.Label, Summary: e.Marker.Summary,
			Model: e.Marker.Model, Thinking: e.Marker.Thinking, Approval: e.Marker.Approval, Scope: e.Marker.Scope, Files: e.Marker.Files}
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

// identity tells one message from another across a rewrite: a truncation
// keeps a message's role, time and tool call id while it shortens its
// content; a compaction's summary is a message of its own.
type identity struct {
	role agent.Role
	at   int64
	call string
}

func identityOf(m agent.Message) identity {
	return identity{m.Role, m.Timestamp.UnixMilli(), m.ToolCallID}
}

func identities(msgs []agent.Message) map[identity]bool {
	seen := make(map[identity]bool, len(msgs))
	for _, m := range msgs {
		seen[identityOf(m)] = true
	}
	return seen
}

// NewInContext are the messages of a context entry that the history before
// it does not hold: a compaction's summary, not the messages it kept.
func NewInContext(before []HistoryEntry, ctxMsgs []agent.Message) []agent.Message {
	seen := map[identity]bool{}
	for _, e := range before {
		if e.Kind == HistoryMessage {
			seen[identityOf(e.Message)] = true
		}
	}
	var out []agent.Message
	for _, m := range ctxMsgs {
		if !seen[identityOf(m)] {
			out = append(out, m)
		}
	}
	return out
}

// splitHistory divides a session's history into what the model no longer
// sees, for the screen, and what it sees: the latest context entry's
// messages and the messages after it. The earlier part leaves out the
// messages the context still holds (shown once, where the context has
// them) and ends with the context entry, the compaction's marker.
func splitHistory(history []HistoryEntry) (earlier []HistoryEntry, context []agent.Message) {
	last := -1
	for i, e := range history {
		if e.Kind == HistoryContext {
			last = i
		}
	}
	if last >= 0 {
		context = append(context, history[last].Context...)
	}
	for _, e := range history[last+1:] {
		if m, ok := e.InContext(); ok {
			context = append(context, m)
		}
	}
	if last < 0 {
		return nil, context
	}
	kept := identities(history[last].Context)
	earlier = make([]HistoryEntry, 0, last+1) // a long history: no copies while it grows
	for _, e := range history[:last+1] {
		if e.Kind == HistoryMessage && kept[identityOf(e.Message)] {
			continue
		}
		earlier = append(earlier, e)
	}
	return earlier, context
}

// replacedEntries is what a rewrite of the context adds to the earlier
// history: the messages replaced that the new context does not hold, and the
// marker.
func replacedEntries(ev agent.ContextReplaced, at time.Time) []HistoryEntry {
	kept := identities(ev.Messages)
	var out []HistoryEntry
	for _, m := range ev.Replaced {
		if !kept[identityOf(m)] {
			out = append(out, HistoryEntry{Kind: HistoryMessage, Message: m, Created: m.Timestamp})
		}
	}
	return append(out, HistoryEntry{Kind: HistoryContext, Context: ev.Messages, Created: at})
}
