package todo

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/theme"
)

func list(items ...runner.TodoItem) runner.TodoList { return runner.TodoList{Items: items} }

func noted(l runner.TodoList) msgs.RunEventMsg {
	return msgs.RunEventMsg{RunID: 1, Events: []agent.Event{agent.ToolExecutionStart{ToolName: "todo"},
		agent.Annotation{Kind: runner.AnnotationTodo, Data: l}}}
}

// TestView: what the list shows after each sequence of messages.
func TestView(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	three := list(runner.TodoItem{Text: "read", Status: runner.TodoDone}, runner.TodoItem{Text: "fix \x1b[31mit", Status: runner.TodoInProgress},
		runner.TodoItem{Text: "test", Status: runner.TodoPending})
	pending := list(runner.TodoItem{Text: "a", Status: runner.TodoDone}, runner.TodoItem{Text: "b", Status: runner.TodoPending})
	done := list(runner.TodoItem{Text: "a", Status: runner.TodoDone})
	many := list(make([]runner.TodoItem, 9)...)
	for i := range many.Items {
		many.Items[i] = runner.TodoItem{Text: string(rune('a' + i)), Status: runner.TodoPending}
	}
	for _, tc := range []struct {
		name string
		msgs []tea.Msg
		want string
	}{
		{"nothing", nil, ""},
		{"from the annotation", []tea.Msg{noted(three)}, "todo 1/3\n[x] read\n[~] fix it\n[ ] test"},
		{"folded", []tea.Msg{noted(three), msgs.ToggleTodoMsg{}}, "todo 1/3 · doing: fix it"},
		{"unfolded", []tea.Msg{noted(three), msgs.ToggleTodoMsg{}, msgs.ToggleTodoMsg{}}, "todo 1/3\n[x] read\n[~] fix it\n[ ] test"},
		{"folded, nothing in progress", []tea.Msg{msgs.ToggleTodoMsg{}, noted(pending)}, "todo 1/2 · next: b"},
		{"folded, all done", []tea.Msg{msgs.ToggleTodoMsg{}, noted(done)}, "todo 1/1 · all done"},
		{"from a session loaded", []tea.Msg{msgs.SessionLoadedMsg{Todo: done}}, "todo 1/1\n[x] a"},
		{"a session without a list hides it", []tea.Msg{noted(three), msgs.SessionLoadedMsg{}}, ""},
		{"cleared", []tea.Msg{noted(three), noted(list())}, ""},
		{"other events keep it", []tea.Msg{noted(done), msgs.RunEventMsg{Events: []agent.Event{agent.AgentEnd{}}}}, "todo 1/1\n[x] a"},
		{"cut to the rows", []tea.Msg{noted(many)}, "todo 0/9\n[ ] a\n[ ] b\n[ ] c\n[ ] d\n… 5 more"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := New(theme.NewStyles(theme.Dark()).Todo)
			m.SetSize(40, 6)
			for _, msg := range tc.msgs {
				m, _ = m.Update(msg)
			}
			if got := m.View(); got != tc.want {
				t.Fatalf("View =\n%s\nwant\n%s", got, tc.want)
			}
			if want := strings.Count(tc.want, "\n") + 1; tc.want != "" && m.Height() != want || tc.want == "" && m.Height() != 0 {
				t.Fatalf("Height = %d for %q", m.Height(), tc.want)
			}
		})
	}
}

// TestLinesFitTheWidth: a long item is cut to the width.
func TestLinesFitTheWidth(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	m := New(theme.NewStyles(theme.Dark()).Todo)
	m.SetSize(20, 6)
	m, _ = m.Update(noted(list(runner.TodoItem{Text: strings.Repeat("long ", 10), Status: runner.TodoPending})))
	for _, line := range strings.Split(m.View(), "\n") {
		if lipgloss.Width(line) > 20 {
			t.Fatalf("line %q is wider than 20", line)
		}
	}
}
