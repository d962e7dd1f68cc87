package chat

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/steer-tui/steer/tui/msgs"
)

// What /copy and y copy is Markdown as the model wrote it (an answer's
// source, not its rendering), or a tool call as a heading and a fenced
// block of its output, so that it pastes as it reads.

// LastAnswer is the Markdown of the newest assistant message with text;
// false when the transcript has none.
func (m Model) LastAnswer() (string, bool) {
	for i := len(m.t.entries) - 1; i >= 0; i-- {
		if a, ok := m.t.entries[i].it.(*assistantItem); ok && strings.TrimSpace(a.text.src) != "" {
			return a.text.src, true
		}
	}
	return "", false
}

// selectedMarkdown is the selected item as Markdown, and what it is;
// false when nothing with text is selected.
func (m Model) selectedMarkdown() (text, what string, ok bool) {
	if m.selected < 0 || m.selected >= len(m.t.entries) {
		return "", "", false
	}
	switch it := m.t.entries[m.selected].it.(type) {
	case *assistantItem:
		if strings.TrimSpace(it.text.src) != "" {
			return it.text.src, "the answer", true
		}
		if strings.TrimSpace(it.thinking) != "" {
			return it.thinking, "the thinking", true
		}
	case *toolItem:
		return toolMarkdown(it), "the " + oneLine(it.name) + " call", true
	}
	return "", "", false
}

// toolMarkdown is a tool call as Markdown: its name and argument summary,
// then its output in a fence longer than any run of backticks inside it.
func toolMarkdown(t *toolItem) string {
	head := "`" + oneLine(t.name) + "`"
	if s := argSummary(t.name, t.args); s != "" {
		head += " " + s
	}
	out := ansi.Strip(t.output)
	fence := "```"
	for strings.Contains(out, fence) {
		fence += "`"
	}
	return fmt.Sprintf("%s\n\n%s\n%s\n%s\n", head, fence, strings.TrimRight(out, "\n"), fence)
}

// copySelected asks to copy the selected item, or the last answer when
// nothing is selected.
func (m Model) copySelected() tea.Cmd {
	text, what, ok := m.selectedMarkdown()
	if !ok {
		if text, ok = m.LastAnswer(); !ok {
			return func() tea.Msg { return msgs.HintMsg{Text: "nothing to copy yet"} }
		}
		what = "the last answer"
	}
	return func() tea.Msg { return msgs.CopyMsg{Text: text, What: what} }
}
