package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

func TestUnanswered(t *testing.T) {
	user := func(s string) agent.Message {
		return agent.Message{Role: agent.RoleUser, Content: []agent.Content{agent.Text(s)}}
	}
	failed := agent.Message{Role: agent.RoleAssistant, StopReason: agent.StopReasonError, ErrorMessage: "connection refused", Content: []agent.Content{}}
	thought := failed
	thought.Content = []agent.Content{{Type: agent.ContentThinking, Thinking: "hmm"}}
	said := failed
	said.Content = []agent.Content{agent.Text("Half an ans")}
	aborted := agent.Message{Role: agent.RoleAssistant, StopReason: agent.StopReasonAborted, Content: []agent.Content{}}
	called := agent.Message{Role: agent.RoleAssistant, StopReason: agent.StopReasonToolUse,
		Content: []agent.Content{agent.ToolCall("t1", "ls", map[string]any{})}}
	result := agent.Message{Role: agent.RoleToolResult, ToolCallID: "t1", Content: []agent.Content{agent.Text("a.go")}}
	answered := agent.Message{Role: agent.RoleAssistant, StopReason: agent.StopReasonStop, Content: []agent.Content{agent.Text("done")}}
	for _, c := range []struct {
		name string
		run  []agent.Message
		want string // "" for nothing to restore
	}{
		{"failed before anything", []agent.Message{user("fix the bug"), failed}, "fix the bug"},
		{"only thinking shown", []agent.Message{user("fix the bug"), thought}, "fix the bug"},
		{"steering taken in before the request", []agent.Message{user("fix the bug"), user("in main.go"), failed}, "fix the bug\nin main.go"},
		{"text shown", []agent.Message{user("fix the bug"), said}, ""},
		{"a tool called before the failure", []agent.Message{user("fix the bug"), called, result, failed}, ""},
		{"aborted", []agent.Message{user("fix the bug"), aborted}, ""},
		{"answered", []agent.Message{user("fix the bug"), answered}, ""},
		{"a follow-up failed after an answer", []agent.Message{user("fix the bug"), answered, user("and test it"), failed}, ""},
		{"nothing", nil, ""},
	} {
		got, ok := unanswered(c.run)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s: unanswered = %q, %v; want %q", c.name, got, ok, c.want)
		}
	}
}

// TestFailedPromptComesBack: a prompt whose run fails before anything of an
// answer shows comes back into the empty editor, the error shown as ever;
// one whose answer had begun does not, nor does one the user aborted, nor
// one whose editor holds new text.
func TestFailedPromptComesBack(t *testing.T) {
	refused := &agent.ProviderError{Status: 400, Message: "invalid request: bad parameter"}
	for _, c := range []struct {
		name    string
		reply   func(release <-chan struct{}) *agenttest.Response
		typed   string // typed while the run works, before release
		abort   bool
		restore bool
	}{
		{name: "nothing shown", reply: func(<-chan struct{}) *agenttest.Response { return agenttest.Reply().Fail(refused) }, restore: true},
		{name: "text shown", reply: func(<-chan struct{}) *agenttest.Response {
			return agenttest.Reply().Text("Half an answer").Fail(refused)
		}},
		{name: "editor in use", reply: func(r <-chan struct{}) *agenttest.Response { return agenttest.Reply().Wait(r).Fail(refused) }, typed: "other"},
		{name: "aborted", reply: func(<-chan struct{}) *agenttest.Response { return agenttest.Reply().Hang() }, abort: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			release := make(chan struct{})
			h := newHarness(t, newRuntime(t, nil, c.reply(release)), 100, 30)
			h.typeText("fix the bug")
			h.key(tea.KeyEnter, false)
			h.waitFor("the run", func(m Model) bool { return m.running })
			if c.typed != "" {
				h.waitFor("the editor to empty", func(m Model) bool { return m.input.Value() == "" })
				h.typeText(c.typed)
				close(release)
			}
			if c.abort {
				h.key(tea.KeyEsc, false)
			}
			h.waitFor("the run to end", func(m Model) bool { return !m.running })
			h.settle()
			got := h.m.input.Value()
			switch {
			case c.restore && got != "fix the bug":
				t.Fatalf("the failed prompt is not back in the editor: %q\n%s", got, h.m.View())
			case c.restore && !strings.Contains(h.m.View(), "bad parameter"):
				t.Fatalf("the error is not shown:\n%s", h.m.View())
			case !c.restore && got != c.typed:
				t.Fatalf("the editor holds %q, want %q", got, c.typed)
			}
		})
	}
}
