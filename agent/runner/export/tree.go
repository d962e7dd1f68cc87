package export

import "fmt"

// TreeError says why a session's entries do not form a tree a writer can
// follow.
type TreeError struct {
	EntryID string
	Problem string
}

func (e *TreeError) Error() string {
	if e.EntryID == "" {
		return "export: " + e.Problem
	}
	return fmt.Sprintf("export: entry %q: %s", e.EntryID, e.Problem)
}

// tree is a validated session: entries in tree order (every parent before
// its children, otherwise in the order given) with lookups by id.
type tree struct {
	order    []*Entry
	byID     map[string]*Entry
	children map[string][]string
	leaf     string
}

// buildTree validates s and orders its entries.
func buildTree(s Session) (*tree, error) {
	t := &tree{byID: make(map[string]*Entry, len(s.Entries)), children: map[string][]string{}, leaf: s.Leaf}
	for i := range s.Entries {
		e := &s.Entries[i]
		switch {
		case e.ID == "":
			return nil, &TreeError{Problem: fmt.Sprintf("entry %d has no id", i)}
		case t.byID[e.ID] != nil:
			return nil, &TreeError{EntryID: e.ID, Problem: "id is used twice"}
		case !knownType(e.Type):
			return nil, &TreeError{EntryID: e.ID, Problem: fmt.Sprintf("unknown type %q", e.Type)}
		case e.Type == TypeMessage && e.Message == nil:
			return nil, &TreeError{EntryID: e.ID, Problem: "message entry has no message"}
		}
		t.byID[e.ID] = e
	}
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.ParentID != "" && t.byID[e.ParentID] == nil {
			return nil, &TreeError{EntryID: e.ID, Problem: fmt.Sprintf("parent %q is not in the session", e.ParentID)}
		}
		t.children[e.ParentID] = append(t.children[e.ParentID], e.ID)
	}
	t.orderFrom("")
	if len(t.order) != len(s.Entries) {
		return nil, &TreeError{Problem: "entries form a cycle: some are not reachable from a root"}
	}
	switch {
	case s.Leaf == "" && len(s.Entries) > 0:
		return nil, &TreeError{Problem: "session has entries but no leaf"}
	case s.Leaf != "" && t.byID[s.Leaf] == nil:
		return nil, &TreeError{EntryID: s.Leaf, Problem: "leaf is not in the session"}
	}
	return t, nil
}

// orderFrom appends the subtree under parent in pre-order, so each entry
// follows its parent and siblings keep the order they were given in.
func (t *tree) orderFrom(parent string) {
	stack := []string{parent}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if id != "" {
			t.order = append(t.order, t.byID[id])
		}
		kids := t.children[id]
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, kids[i])
		}
	}
}

// path returns the entries from a root down to leaf.
func (t *tree) path(leaf string) []*Entry {
	var rev []*Entry
	for id := leaf; id != ""; id = t.byID[id].ParentID {
		rev = append(rev, t.byID[id])
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

// leaves returns the entries without children, in tree order: one per
// branch.
func (t *tree) leaves() []*Entry {
	var out []*Entry
	for _, e := range t.order {
		if len(t.children[e.ID]) == 0 {
			out = append(out, e)
		}
	}
	return out
}
