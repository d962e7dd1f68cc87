package runner

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/tools"
	"github.com/steer-tui/steer/contextguard"
)

var todoAt = time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC)

func todoResult(text string, isError bool) agent.Message {
	return agent.Message{Role: agent.RoleToolResult, ToolName: "todo", ToolCallID: "c", IsError: isError,
		Content: []agent.Content{agent.Text(text)}, Timestamp: todoAt}
}

func todoList(items ...tools.TodoItem) tools.TodoList { return tools.TodoList{Items: items} }

// TestTodoOf: the list is the last successful todo call's, or the last
// compaction summary's block when no call came after it.
func TestTodoOf(t *testing.T) {
	first := todoList(tools.TodoItem{Text: "read", Status: tools.TodoInProgress})
	second := todoList(tools.TodoItem{Text: "read", Status: tools.TodoDone}, tools.TodoItem{Text: "edit", Status: tools.TodoPending})
	summary := contextguard.SummaryMessage("## Goal\nfix it\n\n"+todoBlock(first), todoAt)
	other := agent.Message{Role: agent.RoleToolResult, ToolName: "read", Content: []agent.Content{agent.Text("[x] not a list")}}
	for _, tc := range []struct {
		name string
		msgs []agent.Message
		want tools.TodoList
	}{
		{"none", []agent.Message{agent.UserMessage("hi", todoAt)}, tools.TodoList{}},
		{"the last call", []agent.Message{todoResult(first.Render(), false), todoResult(second.Render(), false)}, second},
		{"a failed call does not count", []agent.Message{todoResult(first.Render(), false), todoResult("todo: item 1: text is empty", true)}, first},
		{"another tool's result does not count", []agent.Message{todoResult(first.Render(), false), other}, first},
		{"a cleared list", []agent.Message{todoResult(first.Render(), false), todoResult(tools.TodoList{}.Render(), false)}, tools.TodoList{}},
		{"the summary's block", []agent.Message{summary, agent.UserMessage("go on", todoAt)}, first},
		{"a call after the summary wins", []agent.Message{summary, todoResult(second.Render(), false)}, second},
		{"a user's own block is not the list", []agent.Message{agent.UserMessage(todoBlock(first), todoAt)}, tools.TodoList{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := TodoOf(tc.msgs); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("TodoOf = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestWithTodo: a compaction's summary carries the list as one block,
// replacing a stale one the summariser repeated; without a summary message
// the block becomes one; an empty list adds nothing.
func TestWithTodo(t *testing.T) {
	l := todoList(tools.TodoItem{Text: "ship it", Status: tools.TodoPending})
	stale := todoList(tools.TodoItem{Text: "old", Status: tools.TodoDone})
	tail := agent.UserMessage("last turn", todoAt)
	at := todoAt.Add(time.Hour)
	for _, tc := range []struct {
		name      string
		msgs      []agent.Message
		summary   string
		list      tools.TodoList
		wantFirst string // the first message's summary text
		wantLen   int
	}{
		{"appended", []agent.Message{contextguard.SummaryMessage("gist", todoAt), tail}, "gist", l,
			"gist\n\n<todo-list>\n[ ] ship it\n</todo-list>", 2},
		{"a stale block replaced", []agent.Message{contextguard.SummaryMessage("gist\n\n"+todoBlock(stale), todoAt), tail}, "gist", l,
			"gist\n\n<todo-list>\n[ ] ship it\n</todo-list>", 2},
		{"a stale block dropped for no list", []agent.Message{contextguard.SummaryMessage("gist\n\n"+todoBlock(stale), todoAt), tail}, "gist", tools.TodoList{},
			"gist", 2},
		{"no summary message", []agent.Message{tail}, "", l, "<todo-list>\n[ ] ship it\n</todo-list>", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msgs, summary := withTodo(tc.msgs, tc.summary, tc.list, at)
			text, ok := contextguard.SummaryText(msgs[0])
			if !ok || text != tc.wantFirst || len(msgs) != tc.wantLen {
				t.Fatalf("first message %q (summary %v), %d messages; want %q, %d", text, ok, len(msgs), tc.wantFirst, tc.wantLen)
			}
			if !reflect.DeepEqual(TodoOf(msgs), tc.list) {
				t.Fatalf("TodoOf the result = %+v, want %+v", TodoOf(msgs), tc.list)
			}
			if len(tc.list.Items) > 0 && !strings.Contains(summary, todoBlock(tc.list)) {
				t.Fatalf("the summary %q does not carry the list", summary)
			}
		})
	}
	if msgs, _ := withTodo([]agent.Message{tail}, "", tools.TodoList{}, at); len(msgs) != 1 {
		t.Fatalf("an empty list without a summary added %d messages", len(msgs)-1)
	}
}

// TestManualCompactionCarriesTheTodoList: /compact of a session whose todo
// call is summarised away keeps its list in the summary, and State says so.
func TestManualCompactionCarriesTheTodoList(t *testing.T) {
	l := todoList(tools.TodoItem{Text: "read", Status: tools.TodoDone}, tools.TodoItem{Text: "edit", Status: tools.TodoInProgress})
	rt, _ := guardRuntime(t, &overflowing{limit: 1_000_000}, 200_000)
	msgs := append([]agent.Message{agent.UserMessage("plan it", todoAt), todoResult(l.Render(), false)}, history(3, 200)...)
	if err := rt.agent.ReplaceMessages(msgs); err != nil {
		t.Fatal(err)
	}
	if got := rt.State().Todo; !reflect.DeepEqual(got, l) {
		t.Fatalf("before: State().Todo = %+v", got)
	}
	end, err := rt.Compact(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	st := rt.State()
	for _, m := range st.Messages {
		if m.Role == agent.RoleToolResult && m.ToolName == "todo" {
			t.Fatal("the todo call was kept: the test compacts nothing away")
		}
	}
	if !reflect.DeepEqual(st.Todo, l) || !strings.Contains(end.Result.Summary, todoBlock(l)) {
		t.Fatalf("after: State().Todo = %+v, summary %q", st.Todo, end.Result.Summary)
	}
}
