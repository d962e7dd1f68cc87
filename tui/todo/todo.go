// Package todo is the session's todo list pinned above the editor: one
// marked line per item, or folded to one line ("todo 2/5 · doing: X"),
// hidden while the session has no list.
//
// Its list comes only from the runtime: the todo annotation of a run's
// events (runner.AnnotationTodo) and the snapshot of a session loaded
// (msgs.SessionLoadedMsg.Todo), never from reading tool calls.
package todo

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/sanitize"
	"github.com/steer-tui/steer/tui/theme"
)

// Model is the pinned list. Folding is the user's and outlives a session
// switch; the list is the session's.
type Model struct {
	styles  theme.TodoStyles
	list    runner.TodoList
	folded  bool
	width   int
	maxRows int
	view    string
}

// New returns an empty list, which shows nothing.
func New(st theme.TodoStyles) Model { return Model{styles: st, width: 40, maxRows: 6} }

// SetStyles changes the styles (a theme chosen with /theme).
func (m *Model) SetStyles(st theme.TodoStyles) {
	m.styles = st
	m.render()
}

// SetSize sets the width and the most rows the list may take.
func (m *Model) SetSize(width, maxRows int) {
	width, maxRows = max(width, 10), max(maxRows, 2)
	if width != m.width || maxRows != m.maxRows {
		m.width, m.maxRows = width, maxRows
		m.render()
	}
}

// List is the list shown.
func (m Model) List() runner.TodoList { return m.list }

// Folded reports whether the list shows as one line.
func (m Model) Folded() bool { return m.folded }

// Update takes the runtime's todo annotations and snapshots, and the
// request to fold or unfold.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case msgs.RunEventMsg:
		changed := false
		for _, ev := range msg.Events {
			if a, ok := ev.(agent.Annotation); ok && a.Kind == runner.AnnotationTodo {
				if l, ok := a.Data.(runner.TodoList); ok {
					m.list, changed = l, true
				}
			}
		}
		if !changed {
			return m, nil
		}
	case msgs.SessionLoadedMsg:
		m.list = msg.Todo
	case msgs.ToggleTodoMsg:
		m.folded = !m.folded
	default:
		return m, nil
	}
	m.render()
	return m, nil
}

// Height is the number of rows View takes: 0 without a list.
func (m Model) Height() int {
	if m.view == "" {
		return 0
	}
	return strings.Count(m.view, "\n") + 1
}

// View returns the list, or "" when there is none.
func (m Model) View() string { return m.view }

// marks are each status's mark, as the tool renders them.
var marks = map[runner.TodoStatus]string{runner.TodoDone: "[x]", runner.TodoInProgress: "[~]", runner.TodoPending: "[ ]"}

func (m *Model) render() {
	items := m.list.Items
	if len(items) == 0 {
		m.view = ""
		return
	}
	st := m.styles
	head := fmt.Sprintf("todo %d/%d", m.list.Done(), len(items))
	if m.folded {
		m.view = m.line(st.Header.Render(head) + st.Header.Render(" · ") + st.Doing.Render(m.summary()))
		return
	}
	out := []string{m.line(st.Header.Render(head))}
	shown := items
	if len(items) > m.maxRows-1 { // the header and one "more" line stay
		shown = items[:m.maxRows-2]
	}
	for _, it := range shown {
		out = append(out, m.line(m.styleOf(it.Status).Render(marks[it.Status]+" "+clean(it.Text))))
	}
	if left := len(items) - len(shown); left > 0 {
		out = append(out, m.line(st.Header.Render(fmt.Sprintf("… %d more", left))))
	}
	m.view = strings.Join(out, "\n")
}

// summary is what the folded line says after the count: the item in
// progress, else the next pending one, else that all is done.
func (m Model) summary() string {
	if it, ok := m.list.Doing(); ok {
		return "doing: " + clean(it.Text)
	}
	for _, it := range m.list.Items {
		if it.Status == runner.TodoPending {
			return "next: " + clean(it.Text)
		}
	}
	return "all done"
}

func (m Model) styleOf(s runner.TodoStatus) lipgloss.Style {
	switch s {
	case runner.TodoDone:
		return m.styles.Done
	case runner.TodoInProgress:
		return m.styles.Doing
	}
	return m.styles.Pending
}

// line cuts a rendered row to the width.
func (m Model) line(s string) string { return ansi.Truncate(s, m.width, "…") }

// clean is item text safe to print: the model wrote it.
func clean(s string) string { return sanitize.String(s, sanitize.Options{}) }
