package runner

import (
	"strings"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/tools"
	"github.com/steer-tui/steer/contextguard"
)

// The session's todo list (the todo tool, agent/tools/todo.go) is a fact of
// its transcript, so that it is saved with the session and survives a
// restart without a store of its own:
//
//   - a todo call that succeeded holds the list in its result, rendered one
//     marked line per item (tools.TodoList.Render);
//   - a compaction carries the list at the time into its summary, verbatim,
//     as a <todo-list> block of the same lines (withTodo), so that the model
//     still sees it and the list outlives the calls summarised away.
//
// TodoOf reads the latest of the two. Front ends hear of each change as the
// todo annotation (AnnotationTodo, in the run's stream before the call's
// tool_execution_end) and read the list of a session they open in
// State().Todo.

// AnnotationTodo is the annotation a todo call emits with the new list.
const AnnotationTodo = tools.AnnotationTodo

// The todo list's types, for front ends, which reach the tools only
// through the runner.
type (
	// TodoList is a session's todo list (tools.TodoList).
	TodoList = tools.TodoList
	// TodoItem is one of its items.
	TodoItem = tools.TodoItem
	// TodoStatus is where an item stands.
	TodoStatus = tools.TodoStatus
)

// The statuses.
const (
	TodoPending    = tools.TodoPending
	TodoInProgress = tools.TodoInProgress
	TodoDone       = tools.TodoDone
)

// The marks of the block a compaction summary carries the list in.
const (
	todoBlockOpen  = "<todo-list>"
	todoBlockClose = "</todo-list>"
)

// TodoOf is the session's current todo list: that of its last successful
// todo call, or of the last compaction summary's <todo-list> block when no
// call came after it; empty when there is neither.
func TodoOf(msgs []agent.Message) tools.TodoList {
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		switch {
		case m.Role == agent.RoleToolResult && m.ToolName == todoToolName && !m.IsError:
			return tools.ParseTodoLines(m.TextContent())
		case m.Role == agent.RoleUser:
			if summary, ok := contextguard.SummaryText(m); ok {
				if block, found := lastTodoBlock(summary); found {
					return tools.ParseTodoLines(block)
				}
			}
		}
	}
	return tools.TodoList{}
}

// todoToolName is the todo tool's name, which its results carry.
const todoToolName = "todo"

// lastTodoBlock is the text inside the last <todo-list> block of s.
func lastTodoBlock(s string) (string, bool) {
	open := strings.LastIndex(s, todoBlockOpen)
	if open < 0 {
		return "", false
	}
	rest := s[open+len(todoBlockOpen):]
	body, _, _ := strings.Cut(rest, todoBlockClose)
	return strings.Trim(body, "\n"), true
}

// withoutTodoBlocks is s without any <todo-list> block: a summary that
// merged an earlier one may repeat its list, which is stale by now.
func withoutTodoBlocks(s string) string {
	for {
		open := strings.Index(s, todoBlockOpen)
		if open < 0 {
			return strings.TrimRight(s, "\n")
		}
		end := strings.Index(s[open:], todoBlockClose)
		if end < 0 {
			return strings.TrimRight(s[:open], "\n")
		}
		s = s[:open] + s[open+end+len(todoBlockClose):]
	}
}

// todoBlock is the list as the block a summary carries.
func todoBlock(l tools.TodoList) string {
	return todoBlockOpen + "\n" + l.Render() + "\n" + todoBlockClose
}

// withTodo is a compaction's result carrying l: the summary message of
// msgs (the compacted transcript) ends with l's block instead of any it
// had, and summary, the summary's text, likewise. A compaction that made no
// summary message (an engine's own) gets the block as a message of its own
// before the transcript, stamped at (when the compaction ran). An empty l is carried as no block.
func withTodo(msgs []agent.Message, summary string, l tools.TodoList, at time.Time) ([]agent.Message, string) {
	carry := func(s string) string {
		s = withoutTodoBlocks(s)
		if len(l.Items) == 0 {
			return s
		}
		if s == "" {
			return todoBlock(l)
		}
		return s + "\n\n" + todoBlock(l)
	}
	for i, m := range msgs {
		if text, ok := contextguard.SummaryText(m); ok {
			out := append([]agent.Message(nil), msgs...)
			out[i] = contextguard.SummaryMessage(carry(text), m.Timestamp)
			return out, carry(summary)
		}
	}
	if len(l.Items) == 0 {
		return msgs, summary
	}
	return append([]agent.Message{contextguard.SummaryMessage(todoBlock(l), at)}, msgs...), carry(summary)
}
