package runner

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner/export"
	"github.com/steer-tui/steer/persistence"
)

// Export is saved session id in export's terms, every branch of its tree
// and its queue, or ErrNoSavedSession.
func (v *StateView) Export(ctx context.Context, id string) (export.Session, error) {
	return exportOf(ctx, v.store, id)
}

// exportOf reads session id from store as an export.Session: a compaction's
// summary is what its context holds that the path before it does not, and
// its Context the exact messages the model sees from it on.
func exportOf(ctx context.Context, store *persistence.Store, id string) (export.Session, error) {
	ss, err := store.Session(ctx, id)
	if err == nil {
		var t persistence.Tree
		t, err = store.LoadTree(ctx, id)
		if err == nil {
			var queue []agent.QueueItem
			if queue, err = store.PendingInputs(ctx, id); err == nil {
				s := exportTree(historyOf(t.Entries), entryID(t.Leaf))
				s.ID, s.Title, s.Name, s.Workspace, s.Model, s.Created, s.Queue = ss.ID, ss.Title, ss.Name, ss.Workspace, ss.Model, ss.Created, queue
				return s, nil
			}
		}
	}
	if errors.Is(err, persistence.ErrNotFound) {
		return export.Session{}, ErrNoSavedSession
	}
	return export.Session{}, err
}

// exportTree is a whole tree in export's terms.
func exportTree(tree []HistoryEntry, leaf string) export.Session {
	s := export.Session{Leaf: leaf, Entries: make([]export.Entry, len(tree))}
	byID := make(map[string]int, len(tree))
	for i, e := range tree {
		byID[e.ID] = i
	}
	for i, e := range tree {
		x := export.Entry{ID: e.ID, ParentID: e.ParentID, Type: string(e.Kind), Time: e.Created,
			Summary: e.Summary, Label: e.Label, TargetID: e.Target, Model: e.Model, Thinking: e.Thinking, Approval: e.Approval,
			Scope: e.Scope, Files: e.Files}
		switch e.Kind {
		case HistoryContext:
			x.Type, x.Context = export.TypeCompaction, e.Context
			x.Summary = summaryText(NewInContext(pathBefore(tree, byID, e), e.Context))
		case HistoryMessage:
			msg := e.Message
			x.Message = &msg
		}
		s.Entries[i] = x
	}
	if i, ok := byID[leaf]; ok {
		_, sees := splitHistory(append(pathBefore(tree, byID, tree[i]), tree[i]))
		s.Todo = TodoOf(sees)
	}
	return s
}

// pathBefore is the path from the root to e's parent.
func pathBefore(tree []HistoryEntry, byID map[string]int, e HistoryEntry) []HistoryEntry {
	var rev []HistoryEntry
	for id := e.ParentID; id != ""; id = tree[byID[id]].ParentID {
		rev = append(rev, tree[byID[id]])
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

// summaryText is the text of a compaction's new messages.
func summaryText(msgs []agent.Message) string {
	parts := make([]string, 0, len(msgs))
	for _, m := range msgs {
		parts = append(parts, m.TextContent())
	}
	return strings.Join(parts, "\n\n")
}

// WriteExport writes s to w as format (html, the default, md or jsonl),
// redacting secrets (the provider keys) and the token shapes export knows,
// and says how many it replaced.
func WriteExport(w io.Writer, s export.Session, format string, secrets []string) (redacted int, err error) {
	write := export.HTML
	switch format {
	case "md":
		write = export.Markdown
	case "jsonl":
		write = export.JSONL
	}
	r := export.NewRedactor(secrets...)
	err = write(w, s, r)
	return int(r.Count()), err
}
