package tools

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
)

func todoArgs(items ...[2]string) map[string]any {
	raw := make([]any, len(items))
	for i, it := range items {
		raw[i] = map[string]any{"text": it[0], "status": it[1]}
	}
	return map[string]any{"items": raw}
}

// TestParseTodo: what a call may set, and the error for what it may not.
func TestParseTodo(t *testing.T) {
	for _, tc := range []struct {
		name string
		args map[string]any
		want []TodoItem
		err  string
	}{
		{"one of each", todoArgs([2]string{"read", "done"}, [2]string{"edit", "in_progress"}, [2]string{"test", "pending"}),
			[]TodoItem{{"read", TodoDone}, {"edit", TodoInProgress}, {"test", TodoPending}}, ""},
		{"empty clears", todoArgs(), []TodoItem{}, ""},
		{"text flattened", todoArgs([2]string{"  two\n lines ", "pending"}), []TodoItem{{"two lines", TodoPending}}, ""},
		{"blank text", todoArgs([2]string{" \n", "pending"}), nil, "item 1: text is empty"},
		{"unknown status", todoArgs([2]string{"a", "pending"}, [2]string{"b", "blocked"}), nil, `item 2: status "blocked"`},
		{"two in progress", todoArgs([2]string{"a", "in_progress"}, [2]string{"b", "done"}, [2]string{"c", "in_progress"}), nil, "items 1 and 3 are both in_progress"},
		{"no items", map[string]any{}, nil, "items must be a list"},
		{"too many", todoArgs(make([][2]string, MaxTodoItems+1)...), nil, "at most 100"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseTodo(tc.args)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got.Items, tc.want) {
				t.Fatalf("ParseTodo = %+v, %v; want %+v", got.Items, err, tc.want)
			}
		})
	}
}

// TestTodoRenderReadsBack: the result's lines read back into the list, and
// lines that are no item's are skipped.
func TestTodoRenderReadsBack(t *testing.T) {
	l := TodoList{Items: []TodoItem{{"read [x] the spec", TodoDone}, {"edit", TodoInProgress}, {"test", TodoPending}}}
	if got, want := l.Render(), "[x] read [x] the spec\n[~] edit\n[ ] test"; got != want {
		t.Fatalf("Render = %q, want %q", got, want)
	}
	if got := ParseTodoLines(l.Render() + "\nhook: noted\n[ ] "); !reflect.DeepEqual(got, l) {
		t.Fatalf("ParseTodoLines = %+v, want %+v", got, l)
	}
	if got := (TodoList{}).Render(); got != todoCleared || len(ParseTodoLines(got).Items) != 0 {
		t.Fatalf("the empty list renders %q", got)
	}
	if d, ok := l.Doing(); !ok || d.Text != "edit" || l.Done() != 1 {
		t.Fatalf("Doing = %v %v, Done = %d", d, ok, l.Done())
	}
}

// TestTodoToolRunsWithoutAsking: the call changes nothing the policy
// guards, so every mode runs it; a bad list is an error result.
func TestTodoToolRunsWithoutAsking(t *testing.T) {
	a := Todo().(Describer).Describe(todoArgs([2]string{"a", "pending"}))
	for _, mode := range Modes {
		if v := Decide(mode, a); v != Run {
			t.Errorf("mode %s: %v, want run", mode, v)
		}
	}
	res, err := Todo().Execute(context.Background(), "c1", todoArgs([2]string{"a", "done"}), nil)
	if err != nil || res.IsError || res.Content[0].Text != "[x] a" {
		t.Fatalf("Execute = %+v, %v", res, err)
	}
	if _, ok := res.Details.(TodoList); !ok {
		t.Errorf("Details = %T, want TodoList", res.Details)
	}
	bad, _ := Todo().Execute(context.Background(), "c2", todoArgs([2]string{"", "done"}), nil)
	if !bad.IsError || !strings.Contains(agent.Message{Content: bad.Content}.TextContent(), "text is empty") {
		t.Fatalf("a blank item: %+v", bad)
	}
}
