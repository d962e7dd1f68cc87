package treeview

import (
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
)

// sample is a tree with a tool call, a branch, a label and a model change:
//
//	1 user "fix" → 2 assistant (read call) → 3 result → 4 assistant "done"
//	                                                  ↘ 5 model change → 6 user "again"
//	7 label on 1
func sample() runner.SessionTree {
	at := time.Unix(0, 0)
	msg := func(id, parent string, m agent.Message) runner.HistoryEntry {
		return runner.HistoryEntry{ID: id, ParentID: parent, Kind: runner.HistoryMessage, Message: m}
	}
	call := agent.Message{Role: agent.RoleAssistant, Content: []agent.Content{agent.Text("looking"), agent.ToolCall("c1", "read", nil)}}
	result := agent.Message{Role: agent.RoleToolResult, ToolName: "read", ToolCallID: "c1", Content: []agent.Content{agent.Text("body")}}
	done := agent.Message{Role: agent.RoleAssistant, Content: []agent.Content{agent.Text("done")}}
	return runner.SessionTree{Leaf: "6", Entries: []runner.HistoryEntry{
		msg("1", "", agent.UserMessage("fix", at)),
		msg("2", "1", call),
		msg("3", "2", result),
		msg("4", "3", done),
		{ID: "5", ParentID: "3", Kind: runner.HistoryModelChange, Model: "p/m"},
		msg("6", "5", agent.UserMessage("again", at)),
		{ID: "7", ParentID: "6", Kind: runner.HistoryLabel, Target: "1", Label: "start"},
	}}
}

func TestBuildRows(t *testing.T) {
	tests := []struct {
		name     string
		filter   Filter
		query    string
		expanded []string
		folded   []string
		want     []string
	}{
		{"all, results folded under their call", FilterAll, "", nil, nil, []string{
			"[start] user: fix", "assistant: looking ⚙ read (1 result)", "├─ assistant: done", "└─ model → p/m", "   user: again"}},
		{"the call's results shown", FilterAll, "", []string{"2"}, nil, []string{
			"[start] user: fix", "assistant: looking ⚙ read (1 result)", "↳ read: body", "├─ assistant: done", "└─ model → p/m", "   user: again"}},
		{"no tools: markers hidden, the branch stays", FilterNoTools, "", []string{"2"}, nil, []string{
			"[start] user: fix", "assistant: looking ⚙ read (1 result)", "├─ assistant: done", "└─ user: again"}},
		{"user messages only", FilterUser, "", nil, nil, []string{"[start] user: fix", "user: again"}},
		{"labelled only", FilterLabelled, "", nil, nil, []string{"[start] user: fix"}},
		{"search", FilterAll, "AGAIN", nil, nil, []string{"user: again"}},
		{"a fold hides what hangs below", FilterAll, "", nil, []string{"2"}, []string{
			"[start] user: fix", "assistant: looking ⚙ read (1 result) +3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := func(ids []string) map[string]bool {
				m := map[string]bool{}
				for _, id := range ids {
					m[id] = true
				}
				return m
			}
			rows := buildRows(newIndex(sample()), tt.filter, tt.query, set(tt.expanded), set(tt.folded))
			got := make([]string, len(rows))
			for i, r := range rows {
				got[i] = r.prefix + r.text
				if r.hidden > 0 {
					got[i] += " +" + string(rune('0'+r.hidden))
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Fatalf("rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
