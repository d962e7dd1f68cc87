package runner

import (
	"context"
	"fmt"

	"github.com/steer-tui/steer/agent/runner/export"
	"github.com/steer-tui/steer/persistence"
)

// entryKinds maps each export entry type to the store's entry kind: the one
// place to add a kind the store learns to keep (labels, branch summaries,
// model and thinking changes), one line each.
var entryKinds = []struct {
	typ  export.EntryType
	kind persistence.EntryKind
}{
	{export.TypeMessage, persistence.EntryMessage},
	{export.TypeCompaction, persistence.EntryContext},
	{export.TypeLabel, persistence.EntryLabel},
	{export.TypeBranchSummary, persistence.EntryBranchSummary},
	{export.TypeModelChange, persistence.EntryModelChange},
	{export.TypeThinkingChange, persistence.EntryThinkingChange},
	{export.TypeRewind, persistence.EntryRewind},
	{export.TypeApprovalChange, persistence.EntryApprovalChange},
}

// storeKind is the store's kind for an export type, false for one it cannot
// keep yet.
func storeKind(t export.EntryType) (persistence.EntryKind, bool) {
	for _, k := range entryKinds {
		if k.typ == t {
			return k.kind, true
		}
	}
	return "", false
}

// ImportCheck refuses, as export.ReadJSONL reads them, the entries an import
// cannot keep: types this steer does not store yet, and compactions without
// the context a resumed session needs (written before version 2).
func ImportCheck(e export.Entry) error {
	if _, ok := storeKind(e.Type); !ok {
		return fmt.Errorf("entry %q: %s entries are not supported yet by import", e.ID, e.Type)
	}
	if (e.Type == export.TypeLabel || e.Type == export.TypeRewind) && e.TargetID == "" {
		return fmt.Errorf("entry %q: the %s names no entry (targetId)", e.ID, e.Type)
	}
	if e.Type == export.TypeCompaction && len(e.Context) == 0 {
		return fmt.Errorf("entry %q: the compaction has no context (an export from an older steer): export it again", e.ID)
	}
	return nil
}

// Imported is what an import created.
type Imported struct {
	ID         string `json:"id"`
	OriginalID string `json:"originalId"`
	Workspace  string `json:"workspace"`
	Entries    int    `json:"entries"`
	Queued     int    `json:"queued"`
}

// Import creates a new session (a fresh id) from s, a JSONL export read with
// ImportCheck, working in workspace: every entry of its tree with its
// parent, its leaf, name, title, model and queue, in one transaction.
func (v *StateView) Import(ctx context.Context, s export.Session, workspace string) (Imported, error) {
	in := persistence.ImportedSession{
		Session: persistence.Session{ID: newSessionID(), Workspace: workspace, Title: s.Title, Name: s.Name, Model: s.Model, Created: s.Created},
		Leaf:    -1, Pending: s.Queue,
	}
	order := treeOrder(s)
	index := make(map[string]int, len(order)) // an entry's place in the import
	for i, e := range order {
		index[e.ID] = i
	}
	for _, e := range order {
		if err := ImportCheck(e); err != nil {
			return Imported{}, err
		}
		kind, _ := storeKind(e.Type)
		parent := -1
		if e.ParentID != "" {
			parent = index[e.ParentID]
		}
		x := persistence.ImportedEntry{Parent: parent, Kind: kind, Context: e.Context, Created: e.Time,
			Marker: persistence.Marker{Label: e.Label, Summary: e.Summary, Model: e.Model, Thinking: e.Thinking,
				Approval: e.Approval, Scope: e.Scope, Files: e.Files}}
		if e.Message != nil {
			x.Message = *e.Message
		}
		if kind == persistence.EntryLabel || kind == persistence.EntryRewind {
			target, ok := index[e.TargetID]
			if !ok {
				return Imported{}, fmt.Errorf("entry %q: the %s names %q, which the export does not hold", e.ID, e.Type, e.TargetID)
			}
			x.Marker.Target = target
		}
		in.Entries = append(in.Entries, x)
	}
	if s.Leaf != "" {
		in.Leaf = index[s.Leaf]
	}
	if err := v.store.ImportSession(ctx, in); err != nil {
		return Imported{}, err
	}
	return Imported{ID: in.Session.ID, OriginalID: s.ID, Workspace: workspace, Entries: len(in.Entries), Queued: len(s.Queue)}, nil
}

// treeOrder is s's entries with every parent before its children (s is a
// tree: ReadJSONL checked it), siblings in the order given.
func treeOrder(s export.Session) []export.Entry {
	children := map[string][]int{}
	for i, e := range s.Entries {
		children[e.ParentID] = append(children[e.ParentID], i)
	}
	out := make([]export.Entry, 0, len(s.Entries))
	var walk func(id string)
	walk = func(id string) {
		for _, i := range children[id] {
			out = append(out, s.Entries[i])
			walk(s.Entries[i].ID)
		}
	}
	walk("")
	return out
}
