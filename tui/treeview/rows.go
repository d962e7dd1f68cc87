package treeview

import (
	"fmt"
	"strings"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
)

// Filter chooses which entries the tree shows.
type Filter int

// The filters, in the order Tab cycles through them.
const (
	FilterAll Filter = iota
	FilterNoTools
	FilterUser
	FilterLabelled
	filterCount
)

func (f Filter) String() string {
	return [...]string{"all", "no tools", "user messages", "labelled"}[f]
}

// row is one line of the tree: an entry, drawn after prefix.
type row struct {
	id     string
	prefix string // the connectors: "│  ├─ "
	text   string
	hidden int // the entries a fold hides under it
}

// entryInfo is what the rows need of an entry.
type entryInfo struct {
	e        runner.HistoryEntry
	label    string
	children []string
	results  int    // tool results folded under a call
	call     string // a tool result's call (its assistant message)
}

// index is the tree in the shape rows are built from.
type index struct {
	byID  map[string]*entryInfo
	order []string // every entry, as written
}

// newIndex reads t: labels go onto their entries (the latest wins), and a
// tool result belongs to its call's row.
func newIndex(t runner.SessionTree) index {
	ix := index{byID: make(map[string]*entryInfo, len(t.Entries))}
	for _, e := range t.Entries {
		ix.byID[e.ID] = &entryInfo{e: e}
		ix.order = append(ix.order, e.ID)
	}
	for _, e := range t.Entries {
		if e.Kind == runner.HistoryLabel {
			if target := ix.byID[e.Target]; target != nil {
				target.label = e.Label
			}
		}
		if isResult(e) {
			call := e.ParentID
			for ix.byID[call] != nil && isResult(ix.byID[call].e) {
				call = ix.byID[call].e.ParentID
			}
			if c := ix.byID[call]; c != nil {
				c.results++
				ix.byID[e.ID].call = call
			}
		}
	}
	return ix
}

// visible says whether the filter and the query show entry in.
func visible(in *entryInfo, f Filter, query string, showResults bool) bool {
	e := in.e
	switch e.Kind {
	case runner.HistoryLabel, runner.HistoryModelChange, runner.HistoryThinkingChange, runner.HistoryApprovalChange:
		if f != FilterAll || e.Kind == runner.HistoryLabel {
			return false
		}
	}
	switch {
	case isResult(e) && (!showResults || f != FilterAll):
		return false
	case f == FilterUser && !(e.Kind == runner.HistoryMessage && e.Message.Role == agent.RoleUser):
		return false
	case f == FilterLabelled && in.label == "":
		return false
	}
	return query == "" || strings.Contains(strings.ToLower(describe(in)), strings.ToLower(query))
}

func isResult(e runner.HistoryEntry) bool {
	return e.Kind == runner.HistoryMessage && e.Message.Role == agent.RoleToolResult
}

// describe is an entry's text on its row.
func describe(in *entryInfo) string {
	e := in.e
	var s string
	switch e.Kind {
	case runner.HistoryMessage:
		s = describeMessage(e.Message, in.results)
	case runner.HistoryContext:
		s = "⟲ compaction"
	case runner.HistoryBranchSummary:
		s = "⑂ branch summary: " + e.Summary
	case runner.HistoryModelChange:
		s = "model → " + e.Model
	case runner.HistoryThinkingChange:
		s = "thinking → " + e.Thinking
	case runner.HistoryApprovalChange:
		s = "tool approval → " + e.Approval
	default:
		s = string(e.Kind)
	}
	s = strings.Join(strings.Fields(s), " ")
	if in.label != "" {
		s = "[" + in.label + "] " + s
	}
	return s
}

func describeMessage(m agent.Message, results int) string {
	text := m.TextContent()
	switch m.Role {
	case agent.RoleUser:
		return "user: " + text
	case agent.RoleToolResult:
		return "↳ " + m.ToolName + ": " + text
	}
	var calls []string
	for _, c := range m.Content {
		if c.Type == agent.ContentToolCall {
			calls = append(calls, c.Name)
		}
	}
	s := "assistant: " + text
	if len(calls) > 0 {
		s += " ⚙ " + strings.Join(calls, ", ")
		switch {
		case results == 1:
			s += " (1 result)"
		case results > 1:
			s += fmt.Sprintf(" (%d results)", results)
		}
	}
	return s
}

// buildRows lays the visible entries out oldest first, downward: a chain
// stays in its column; the children of an entry with several are drawn with
// connectors, each branch indented under its own. A hidden entry's
// children hang from its nearest visible ancestor. Folded entries show
// their own row and hide what is under them.
func buildRows(ix index, f Filter, query string, expanded, folded map[string]bool) []row {
	show := make(map[string]bool, len(ix.order))
	kids := make(map[string][]string, len(ix.order))
	var roots []string
	for _, id := range ix.order {
		in := ix.byID[id]
		show[id] = visible(in, f, query, expanded[in.call])
		parent := in.e.ParentID
		for parent != "" && !show[parent] {
			parent = ix.byID[parent].e.ParentID
		}
		if !show[id] {
			continue
		}
		if parent == "" {
			roots = append(roots, id)
		} else {
			kids[parent] = append(kids[parent], id)
		}
	}
	var rows []row
	var count func(id string) int
	count = func(id string) int {
		n := 0
		for _, k := range kids[id] {
			n += 1 + count(k)
		}
		return n
	}
	var walk func(id, prefix, conn string)
	walk = func(id, prefix, conn string) {
		for {
			r := row{id: id, prefix: prefix + conn, text: describe(ix.byID[id])}
			if folded[id] {
				r.hidden = count(id)
			}
			rows = append(rows, r)
			next := kids[id]
			if folded[id] || len(next) == 0 {
				return
			}
			prefix += continuation(conn)
			if len(next) == 1 {
				id, conn = next[0], ""
				continue
			}
			for i, k := range next {
				c := "├─ "
				if i == len(next)-1 {
					c = "└─ "
				}
				walk(k, prefix, c)
			}
			return
		}
	}
	for i, r := range roots {
		conn := ""
		if len(roots) > 1 {
			conn = "├─ "
			if i == len(roots)-1 {
				conn = "└─ "
			}
		}
		walk(r, "", conn)
	}
	return rows
}

// continuation is what stands under a connector on the rows below it.
func continuation(conn string) string {
	switch conn {
	case "├─ ":
		return "│  "
	case "└─ ":
		return "   "
	}
	return ""
}
