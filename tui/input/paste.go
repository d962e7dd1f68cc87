package input

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/steer-tui/steer/agent/runner"
)

// A paste larger than pasteMaxRunes characters or pasteMaxLines lines is
// held beside the textarea and shown as a one-line placeholder: the
// textarea re-wraps its whole text on every key and keeps at most 10,000
// lines (bubbles' maxLines), so a pasted log would freeze the screen and be
// cut short. The placeholder is expanded, whole, when the text is sent.
const (
	pasteMaxRunes = 1000
	pasteMaxLines = 10
)

// paste is a large paste held for the placeholder label in the text.
type paste struct {
	label, text string
}

// Large reports whether text is held as a paste rather than typed into
// the textarea.
func Large(text string) bool {
	return len(text) > pasteMaxRunes && utf8.RuneCountInString(text) > pasteMaxRunes || lineCount(text) > pasteMaxLines
}

// lineCount counts text's lines; a final newline ends the last one.
func lineCount(text string) int {
	n := strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") {
		n++
	}
	return n
}

// Placeholder is what the editor shows for paste number n of text:
// "[paste #1 · 90,000 lines · 5.1 MB]".
func Placeholder(n int, text string) string {
	lines := lineCount(text)
	word := "lines"
	if lines == 1 {
		word = "line"
	}
	return fmt.Sprintf("[paste #%d · %s %s · %s]", n, thousands(lines), word, DecimalSize(len(text)))
}

// thousands writes n with a comma every three digits.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// DecimalSize words n bytes as a file manager does: "900 B", "12.3 KB",
// "5.1 MB".
func DecimalSize(n int) string {
	switch {
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f KB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}

// normalizeNewlines turns a terminal's line ends into "\n": terminals send
// a pasted line end as "\r" (tmux's paste-buffer, xterm) or "\r\n", and a
// file's content is what the user means to send.
func normalizeNewlines(s string) string {
	if !strings.ContainsRune(s, '\r') {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// hold keeps text as a paste and inserts its placeholder at the cursor.
func (m *Model) hold(text string) {
	m.pasted++
	p := paste{label: Placeholder(m.pasted, text), text: text}
	m.pastes = append(m.pastes[:len(m.pastes):len(m.pastes)], p)
	m.ta.InsertString(p.label)
}

// forgetDeleted lets go of the pastes whose placeholder is no longer in
// the text: deleting the placeholder deletes the paste.
func (m *Model) forgetDeleted() {
	if len(m.pastes) == 0 {
		return
	}
	value := m.ta.Value()
	kept := m.pastes[:0:0]
	for _, p := range m.pastes {
		if strings.Contains(value, p.label) {
			kept = append(kept, p)
		}
	}
	m.pastes = kept
}

// expand replaces each placeholder in text by its paste.
func (m Model) expand(text string) string {
	for _, p := range m.pastes {
		text = strings.Replace(text, p.label, p.text, 1)
	}
	return text
}

// Text returns the text with every paste expanded: what Enter would send.
func (m Model) Text() string { return m.expand(m.ta.Value()) }

// tooLarge says why text may not be sent, or "" when it may.
func (m Model) tooLarge(text string) string {
	if limit := m.d.MaxBytes; limit > 0 && len(text) > limit {
		return (&runner.InputTooLargeError{Bytes: len(text), Limit: limit}).Error()
	}
	return ""
}
