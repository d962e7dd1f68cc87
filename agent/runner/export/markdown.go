package export

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/steer-tui/steer/agent"
)

// Markdown writes the current branch (root → Leaf) for pasting: every
// message, each tool call's name and JSON arguments and each tool output in a
// fenced block, and compactions and other changes as markers.
func Markdown(w io.Writer, s Session, r *Redactor) error {
	t, err := buildTree(s)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	title := r.String(s.Title)
	if title == "" {
		title = "Session " + s.ID
	}
	fmt.Fprintf(bw, "# %s\n\n", title)
	fmt.Fprintf(bw, "Session `%s` · model %s · created %s\n", s.ID, s.Model, s.Created.UTC().Format("2006-01-02 15:04 UTC"))
	writeMarkdownTodo(bw, s.Todo, r)
	for _, e := range t.path(s.Leaf) {
		bw.WriteString("\n")
		if e.Type == TypeMessage {
			writeMarkdownMessage(bw, r.message(*e.Message))
			continue
		}
		writeMarkdownMarker(bw, e, r)
	}
	return bw.Flush()
}

func writeMarkdownMarker(w *bufio.Writer, e *Entry, r *Redactor) {
	line := marker(e)
	if e.Type == TypeLabel {
		line += r.String(e.Label)
	}
	fmt.Fprintf(w, "---\n\n*%s*\n", line)
	if e.Summary != "" {
		writeFenced(w, "text", r.String(e.Summary))
	}
}

func writeMarkdownMessage(w *bufio.Writer, m agent.Message) {
	switch m.Role {
	case agent.RoleUser:
		w.WriteString("## User\n\n")
	case agent.RoleToolResult:
		status := "Output"
		if m.IsError {
			status = "Error"
		}
		fmt.Fprintf(w, "**%s of `%s`**\n", status, m.ToolName)
		writeFenced(w, "text", resultText(m))
		return
	default:
		w.WriteString("## Assistant\n\n")
	}
	for _, c := range m.Content {
		switch c.Type {
		case agent.ContentText:
			w.WriteString(strings.TrimRight(c.Text, "\n") + "\n\n")
		case agent.ContentThinking:
			if c.Thinking != "" {
				w.WriteString("*Thinking:*\n")
				writeFenced(w, "text", c.Thinking)
			}
		case agent.ContentToolCall:
			fmt.Fprintf(w, "**Tool call `%s`**\n", c.Name)
			writeFenced(w, "json", argsJSON(c.Arguments))
		case agent.ContentImage:
			fmt.Fprintf(w, "*[image %s]*\n\n", c.MimeType)
		}
	}
	if m.ErrorMessage != "" {
		fmt.Fprintf(w, "*Error:* %s\n", m.ErrorMessage)
	}
}

// writeFenced writes body in a fence no line of it can close.
func writeFenced(w *bufio.Writer, lang, body string) {
	f := fence(body)
	fmt.Fprintf(w, "\n%s%s\n%s\n%s\n\n", f, lang, strings.TrimRight(body, "\n"), f)
}
