package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// pasteText is a 5 MB paste of 90,000 lines.
func pasteText() string {
	line := strings.Repeat("x", 5_000_000/90_000-1) + "\n"
	return strings.Repeat(line, 90_000)
}

// BenchmarkPaste5MB: a 5 MB, 90,000-line bracketed paste handled by the
// root's Update until its placeholder is in View().
func BenchmarkPaste5MB(b *testing.B) {
	text := pasteText()
	runes := []rune(text)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		m := New(nil, Options{Now: fixedClock})
		next, _ := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: runes, Paste: true})
		if !strings.Contains(next.View(), "[paste #1 · 90,000 lines · 5.0 MB]") {
			b.Fatalf("no placeholder:\n%s", next.View())
		}
	}
}

// TestPasteShowsAPlaceholder: the root hands a large paste to the editor,
// which shows its placeholder and sends it whole.
func TestPasteShowsAPlaceholder(t *testing.T) {
	text := pasteText()
	m := New(nil, Options{Now: fixedClock})
	next, _ := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(text), Paste: true})
	m = next.(Model)
	if v := m.View(); !strings.Contains(v, "[paste #1 · 90,000 lines · 5.0 MB]") {
		t.Fatalf("no placeholder:\n%s", v)
	}
	if m.input.Text() != text {
		t.Fatalf("the editor holds %d bytes of %d", len(m.input.Text()), len(text))
	}
}
