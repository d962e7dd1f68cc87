package tui

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/tui/input"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/term"
)

// Copying (/copy, y in the transcript) sends the text to the terminal's
// clipboard with OSC 52, which reaches it over ssh and through tmux, and
// hands it to the system clipboard's tool when one was found at start-up
// (TerminalFeatures.Clipboard). The terminal never says whether it took
// OSC 52, so the confirmation names what was tried.

// copyLastMsg is /copy: copy the last answer.
type copyLastMsg struct{}

// copiedMsg is the system clipboard's tool done with a copy.
type copiedMsg struct {
	what, tool string
	size       int
	err        error
}

// handleCopyLast copies the newest answer in the transcript.
func (m Model) handleCopyLast() (Model, tea.Cmd) {
	text, ok := m.chat.LastAnswer()
	if !ok {
		return m.hint("nothing to copy yet: no answer in this session")
	}
	return m.handleCopy(msgs.CopyMsg{Text: text, What: "the last answer"})
}

// handleCopy writes the OSC 52 sequence between frames and runs the system
// clipboard's tool, if any, in a Cmd.
func (m Model) handleCopy(msg msgs.CopyMsg) (Model, tea.Cmd) {
	seq := term.Clipboard(msg.Text)
	emit := func() tea.Msg { return msgs.EmitSequenceMsg{Seq: seq} }
	sys := m.opts.Terminal.Clipboard
	if sys.Name == "" {
		m, hint := m.hint(copiedMsg{what: msg.What, size: len(msg.Text)}.note())
		return m, tea.Batch(emit, hint)
	}
	text, what := msg.Text, msg.What
	return m, tea.Batch(emit, func() tea.Msg {
		err := sys.Copy(context.Background(), text)
		return copiedMsg{what: what, tool: sys.Name, size: len(text), err: err}
	})
}

// note is the confirmation: what was copied and where it was sent.
func (c copiedMsg) note() string {
	s := fmt.Sprintf("copied %s (%s of Markdown): OSC 52", c.what, input.DecimalSize(c.size))
	switch {
	case c.tool == "":
		return s + " (no system clipboard found)"
	case c.err != nil:
		return s + "; " + c.err.Error()
	}
	return s + " and " + c.tool
}
