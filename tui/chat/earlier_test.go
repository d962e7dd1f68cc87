package chat

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/msgs"
)

// TestSavedHistoryGoesAbove: the history a long session was loaded without
// arrives after it and goes above what the chat shows, in place of the line
// saying it is being read; the view does not move, whether it follows the
// end or was scrolled up, and tool calls pair with their results as on a
// load. A view at the top stays at the top; a failed read says why there;
// a reply for another load is ignored.
func TestSavedHistoryGoesAbove(t *testing.T) {
	call := agent.ToolCall("c_old", "read", map[string]any{"path": "old.go"})
	saved := []runner.HistoryEntry{
		{Kind: runner.HistoryMessage, Message: user("the oldest question")},
		{Kind: runner.HistoryMessage, Message: agent.Message{Role: agent.RoleAssistant,
			Content: []agent.Content{agent.Text("Reading it."), call}, StopReason: agent.StopReasonToolUse}},
		{Kind: runner.HistoryMessage, Message: agent.Message{Role: agent.RoleToolResult, ToolCallID: "c_old", ToolName: "read",
			Content: []agent.Content{agent.Text("line 1\nline 2")}}},
	}
	for _, tt := range []struct {
		name      string
		scroll    int    // lines scrolled up before the history came
		before    string // the compaction the reply is for
		err       error
		wantAdded int
		wantTop   string // on the top line once the history came
	}{
		{"following", 0, "40", nil, 2, ""},
		{"scrolled up", 12, "40", nil, 2, ""},
		{"at the top", 1000, "40", nil, 2, "❯ the oldest question"},
		{"failed", 1000, "40", errors.New("disk I/O error"), 0, "✗ the history above could not be read: disk I/O error"},
		{"another load's", 0, "12", nil, 0, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := newChat(60, 8)
			var recent []agent.Message
			for i := range 10 {
				recent = append(recent, user(fmt.Sprintf("question %d", i)), reply(fmt.Sprintf("answer %d", i)))
			}
			m, _ = m.Update(msgs.SessionLoadedMsg{SessionID: "s", EarlierSaved: "40", Messages: recent,
				Earlier: []runner.HistoryEntry{{ID: "40", Kind: runner.HistoryContext}}})
			if tt.scroll > 0 {
				m, _ = m.Update(msgs.ScrollMsg{Lines: -tt.scroll})
			}
			if tt.scroll >= 1000 && !strings.HasPrefix(strings.TrimSpace(m.View()), readingEarlier) {
				t.Fatalf("the top does not say the history is being read:\n%s", m.View())
			}
			view, n := m.View(), m.Len()
			var entries []runner.HistoryEntry
			if tt.err == nil {
				entries = saved
			}
			m, _ = m.Update(msgs.EarlierLoadedMsg{SessionID: "s", Before: tt.before, Entries: entries, Err: tt.err})
			if m.Len() != n+tt.wantAdded {
				t.Fatalf("%d items after the reply, want %d", m.Len(), n+tt.wantAdded)
			}
			if tt.wantTop != "" {
				if first := strings.TrimSpace(strings.SplitN(m.View(), "\n", 2)[0]); first != tt.wantTop {
					t.Errorf("the top line is %q, want %q", first, tt.wantTop)
				}
			} else if m.View() != view {
				t.Errorf("the view moved:\n%s\nwas:\n%s", m.View(), view)
			}
			m, _ = m.Update(msgs.ScrollMsg{Lines: -1000})
			top := m.View()
			if got := strings.Contains(top, "the oldest question"); got != (tt.wantAdded > 0) {
				t.Errorf("the top of the transcript (saved history shown: %v):\n%s", got, top)
			}
			if tt.wantAdded > 0 && (!strings.Contains(top, "✓ read old.go") || strings.Contains(top, "not run")) {
				t.Errorf("the saved call is not shown done with its result:\n%s", top)
			}
			// A second reply for the same load adds nothing.
			n = m.Len()
			if m, _ = m.Update(msgs.EarlierLoadedMsg{SessionID: "s", Before: tt.before, Entries: saved}); m.Len() != n {
				t.Errorf("a second reply added %d items", m.Len()-n)
			}
		})
	}
}
