package input

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/tui/msgs"
)

func pasteKey(s string) tea.KeyMsg {
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s), Paste: true}
}

var enter = tea.KeyMsg{Type: tea.KeyEnter}

// logText is a file of n lines, ending in a newline, with a tab in it.
func logText(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%d\tline of a log\n", i)
	}
	return b.String()
}

// TestPasteSentAsPasted: a large paste shows as a placeholder and is sent
// byte for byte as pasted (a terminal's "\r" line ends read as "\n"); a
// small one is typed into the editor.
func TestPasteSentAsPasted(t *testing.T) {
	big := logText(90000)
	tests := []struct {
		name, typed, paste string
		wantView, wantSent string
	}{
		{"a large paste alone", "", big, "[paste #1 · 90,000 lines · 1.8 MB]", big},
		{"a terminal's CR line ends", "", strings.ReplaceAll(logText(20), "\n", "\r"), "[paste #1 · 20 lines", logText(20)},
		{"CRLF line ends", "", strings.ReplaceAll(logText(20), "\n", "\r\n"), "[paste #1 · 20 lines", logText(20)},
		{"typed text around it", "see ", logText(11), "see [paste #1 · 11 lines · 1", "see " + logText(11)},
		{"over 1,000 characters on one line", "", strings.Repeat("x", 1001), "[paste #1 · 1 line · 1.0 KB]", strings.Repeat("x", 1001)},
		{"a small paste is typed", "", "two\nlines", "two", "two\nlines"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := typeText(newInput(), tt.typed)
			m, _ = m.Update(pasteKey(tt.paste))
			if v := m.View(); !strings.Contains(v, tt.wantView) {
				t.Fatalf("the editor shows:\n%s\nwant %q", v, tt.wantView)
			}
			if len(m.Value()) > 200 {
				t.Fatalf("the textarea holds %d bytes", len(m.Value()))
			}
			_, req := press(m, enter)
			if got, ok := req.(msgs.SteerMsg); !ok || got.Text != tt.wantSent {
				t.Fatalf("sent %T %.60q…, want the paste byte for byte", req, fmt.Sprint(req))
			}
		})
	}
}

// TestDeletedPlaceholderDropsThePaste: deleting the placeholder deletes the
// paste; what is left is sent alone.
func TestDeletedPlaceholderDropsThePaste(t *testing.T) {
	m, _ := newInput().Update(pasteKey(logText(50)))
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyCtrlU})
	m = typeText(m, "just this")
	if len(m.pastes) != 0 {
		t.Fatalf("%d pastes held after their placeholder went", len(m.pastes))
	}
	if _, req := press(m, enter); !reflect.DeepEqual(req, msgs.SteerMsg{Text: "just this"}) {
		t.Fatalf("sent %v", req)
	}
}

// TestPasteOverTheLimit: a paste larger than the runtime accepts is not
// sent; the editor keeps it and says its size and the limit.
func TestPasteOverTheLimit(t *testing.T) {
	m := newInput()
	m.d.MaxBytes = 1 << 20
	text := logText(90000)
	m, _ = m.Update(pasteKey(text))
	m, req := press(m, enter)
	hint, ok := req.(msgs.HintMsg)
	if !ok || !strings.Contains(hint.Text, "1.7 MiB") || !strings.Contains(hint.Text, "1.0 MiB") {
		t.Fatalf("the refusal: %#v", req)
	}
	if m.Text() != text {
		t.Fatalf("the editor lost the paste: %d bytes left", len(m.Text()))
	}
}

// TestLargeTakeBackIsAPlaceholder: a large queued item taken back (Alt+↑,
// a queue edit, a resumed session's queue) shows as a placeholder again and
// is re-sent whole, as its kind.
func TestLargeTakeBackIsAPlaceholder(t *testing.T) {
	text := logText(500)
	m := typeText(newInput(), "draft")
	m.TakeBack(text, agent.QueueFollowUp)
	if v := m.Value(); !strings.HasPrefix(v, "[paste #1 · 500 lines") || !strings.HasSuffix(v, "\ndraft") {
		t.Fatalf("the editor holds %.80q", v)
	}
	_, req := press(m, enter)
	if !reflect.DeepEqual(req, msgs.FollowUpMsg{Text: text + "\ndraft"}) {
		t.Fatalf("re-sent %T", req)
	}
}
