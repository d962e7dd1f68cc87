package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/steer-tui/steer/agent"
)

// The todo tool keeps the model's plan of work as a list it replaces whole
// on every call. The list changes no file, so the approval policy never asks
// about it (Describe: not mutating, no paths). The call is validated here,
// beyond its schema, so that a bad list is an error result the model can
// fix: every text non-empty, every status one of TodoStatuses, at most
// MaxTodoItems items and at most one in progress — one thing is being done
// at a time, which is what the pinned "doing: X" shows.
//
// The result is the list rendered (TodoList.Render), one line per item:
//
//	[x] done item
//	[~] item in progress
//	[ ] pending item
//
// which ParseTodoLines reads back, so that a session's list can be found
// again in its transcript (the runner's TodoOf) without the tool's details.

// TodoStatus is where an item of the list stands.
type TodoStatus string

// The statuses.
const (
	TodoPending    TodoStatus = "pending"
	TodoInProgress TodoStatus = "in_progress"
	TodoDone       TodoStatus = "done"
)

// TodoStatuses lists the statuses, in the order work goes through them.
var TodoStatuses = []TodoStatus{TodoPending, TodoInProgress, TodoDone}

// AnnotationTodo is the kind of the annotation a successful todo call emits
// before its tool_execution_end, with the new TodoList as its Data.
const AnnotationTodo = "todo"

// MaxTodoItems is the longest list a call may give.
const MaxTodoItems = 100

// TodoItem is one entry of the list.
type TodoItem struct {
	Text   string     `json:"text"`
	Status TodoStatus `json:"status"`
}

// TodoList is the whole list, in the model's order; empty means no list.
type TodoList struct {
	Items []TodoItem `json:"items"`
}

// marks are the rendering of each status, one line per item.
var marks = map[TodoStatus]string{TodoDone: "[x] ", TodoInProgress: "[~] ", TodoPending: "[ ] "}

// todoCleared is the result of a call that empties the list.
const todoCleared = "todo list cleared"

// Render is the list as the tool's result: one marked line per item, or a
// line saying it is empty.
func (l TodoList) Render() string {
	if len(l.Items) == 0 {
		return todoCleared
	}
	lines := make([]string, len(l.Items))
	for i, it := range l.Items {
		lines[i] = marks[it.Status] + it.Text
	}
	return strings.Join(lines, "\n")
}

// Done counts the items done.
func (l TodoList) Done() int {
	n := 0
	for _, it := range l.Items {
		if it.Status == TodoDone {
			n++
		}
	}
	return n
}

// Doing is the item in progress, if there is one.
func (l TodoList) Doing() (TodoItem, bool) {
	for _, it := range l.Items {
		if it.Status == TodoInProgress {
			return it, true
		}
	}
	return TodoItem{}, false
}

// ParseTodoLines reads a list back from text made by Render: every line
// that opens with a mark is an item; other lines (a hook's note appended to
// the result) are skipped.
func ParseTodoLines(text string) TodoList {
	var l TodoList
	for line := range strings.SplitSeq(text, "\n") {
		for _, status := range TodoStatuses {
			if rest, ok := strings.CutPrefix(line, marks[status]); ok && strings.TrimSpace(rest) != "" {
				l.Items = append(l.Items, TodoItem{Text: rest, Status: status})
				break
			}
		}
	}
	return l
}

// ParseTodo validates a call's arguments into the list it sets. Item text
// is flattened to one line, so that the rendering reads back the same.
func ParseTodo(args map[string]any) (TodoList, error) {
	raw, ok := args["items"].([]any)
	if !ok {
		return TodoList{}, fmt.Errorf("items must be a list of {text, status}")
	}
	if len(raw) > MaxTodoItems {
		return TodoList{}, fmt.Errorf("%d items: a list holds at most %d", len(raw), MaxTodoItems)
	}
	l := TodoList{Items: make([]TodoItem, 0, len(raw))}
	doing := -1
	for i, r := range raw {
		obj, _ := r.(map[string]any)
		text := strings.Join(strings.Fields(stringArg(obj, "text")), " ")
		if text == "" {
			return TodoList{}, fmt.Errorf("item %d: text is empty", i+1)
		}
		status := TodoStatus(stringArg(obj, "status"))
		if _, known := marks[status]; !known {
			return TodoList{}, fmt.Errorf("item %d: status %q is not one of pending, in_progress, done", i+1, status)
		}
		if status == TodoInProgress {
			if doing >= 0 {
				return TodoList{}, fmt.Errorf("items %d and %d are both in_progress: work on one at a time", doing+1, i+1)
			}
			doing = i
		}
		l.Items = append(l.Items, TodoItem{Text: text, Status: status})
	}
	return l, nil
}

type todoTool struct{}

// Todo returns the todo tool, which replaces the session's todo list.
func Todo() agent.Tool { return todoTool{} }

var todoSchema = json.RawMessage(`{
	"type": "object",
	"properties": {
		"items": {
			"type": "array",
			"description": "The whole list, in order; it replaces the previous one ([] clears it).",
			"items": {
				"type": "object",
				"properties": {
					"text": {"type": "string", "minLength": 1, "description": "What to do, one line."},
					"status": {"type": "string", "enum": ["pending", "in_progress", "done"]}
				},
				"required": ["text", "status"],
				"additionalProperties": false
			}
		}
	},
	"required": ["items"],
	"additionalProperties": false
}`)

func (todoTool) Spec() agent.ToolSpec {
	return agent.ToolSpec{
		Name: "todo",
		Description: "Keep a todo list for work of several steps; the user sees it pinned. Each call " +
			"replaces the whole list: give every item with its status (pending, in_progress, done), at " +
			"most one in_progress. Update it as you start and finish items.",
		Parameters: todoSchema,
	}
}

// Describe reports a call that touches nothing: the policy lets it run.
func (todoTool) Describe(args map[string]any) Access {
	items, _ := args["items"].([]any)
	return Access{Tool: "todo", Summary: fmt.Sprintf("todo (%d items)", len(items))}
}

func (todoTool) Execute(ctx context.Context, _ string, args map[string]any, _ agent.ToolUpdate) (agent.ToolResult, error) {
	l, err := ParseTodo(args)
	if err != nil {
		return agent.ErrorResult("todo: " + err.Error()), nil
	}
	agent.ToolAnnotate(ctx, agent.Annotation{Kind: AnnotationTodo, Data: l})
	return agent.ToolResult{Content: []agent.Content{agent.Text(l.Render())}, Details: l}, nil
}
