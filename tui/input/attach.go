package input

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner/mention"
	"github.com/steer-tui/steer/tui/msgs"
)

// imageProbedMsg says whether a pasted path (or an image picked after
// "@") is an image to attach; text is what goes into the editor instead
// when it is not, so that nothing pasted is lost.
type imageProbedMsg struct {
	at   agent.Attachment
	err  error
	text string
}

// probeImage checks path in a Cmd; the answer makes a chip or puts text
// in the editor.
func (m *Model) probeImage(path, text string) tea.Cmd {
	files := m.d.Files
	return func() tea.Msg {
		at, err := mention.ProbeImage(files().Root(), path)
		return imageProbedMsg{at: at, err: err, text: text}
	}
}

// handleImageProbed adds the chip, or types the text and says why not.
func (m *Model) handleImageProbed(msg imageProbedMsg) tea.Cmd {
	if msg.err == nil {
		m.attach(msg.at)
		return nil
	}
	m.edit(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(msg.text), Paste: true})
	why := msg.err.Error()
	return func() tea.Msg { return msgs.HintMsg{Text: "not attached: " + why} }
}

// attach adds a chip, once per path.
func (m *Model) attach(at agent.Attachment) {
	for _, c := range m.chips {
		if c.Path == at.Path {
			return
		}
	}
	m.chips = append(m.chips[:len(m.chips):len(m.chips)], at)
}

// Reattach gives back the chips of an input that came back unsent: its
// attached images that its text does not mention (those come back with
// the text).
func (m *Model) Reattach(text string, blocks []agent.Content) {
	mentioned := map[string]bool{}
	for _, p := range mention.Mentions(text) {
		mentioned[p] = true
	}
	for _, b := range blocks {
		if b.Type == agent.ContentImage && b.Attached.Valid() && !mentioned[b.Attached.Path] {
			m.attach(b.Attached)
		}
	}
	m.sync()
}

// Attachments returns the chips, oldest first.
func (m Model) Attachments() []agent.Attachment { return m.chips }

// detach removes the newest chip.
func (m *Model) detach() {
	if n := len(m.chips); n > 0 {
		m.chips = m.chips[:n-1]
	}
}

// chipPaths are the paths the chips attach, for the request.
func (m Model) chipPaths() []string {
	var out []string
	for _, c := range m.chips {
		out = append(out, c.Path)
	}
	return out
}

// renderChips is the line of chips above the rule, or nothing.
func (m *Model) renderChips() []string {
	if len(m.chips) == 0 {
		return nil
	}
	parts := make([]string, len(m.chips))
	for i, c := range m.chips {
		parts[i] = m.d.Styles.Chip.Render(mention.Chip(c))
	}
	return []string{ansi.Truncate(strings.Join(parts, "  "), m.width, "…")}
}
