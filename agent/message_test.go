package agent_test

import (
	"testing"

	"github.com/steer-tui/steer/agent"
)

func TestHasTextAgreesWithTextContent(t *testing.T) {
	text := func(s string) agent.Content { return agent.Content{Type: agent.ContentText, Text: s} }
	thinking := agent.Content{Type: agent.ContentThinking, Thinking: "hmm"}
	call := agent.Content{Type: agent.ContentToolCall, ID: "c1", Name: "bash"}
	for _, tc := range []struct {
		name    string
		content []agent.Content
		want    bool
	}{
		{"no blocks", nil, false},
		{"empty text", []agent.Content{text("")}, false},
		{"thinking only", []agent.Content{thinking}, false},
		{"tool call only", []agent.Content{call}, false},
		{"text", []agent.Content{text("hi")}, true},
		{"text after empty text", []agent.Content{text(""), thinking, text("hi")}, true},
		{"text before a call", []agent.Content{text("hi"), call}, true},
	} {
		m := agent.Message{Role: agent.RoleAssistant, Content: tc.content}
		if got := m.HasText(); got != tc.want || got != (m.TextContent() != "") {
			t.Errorf("%s: HasText = %v, want %v (TextContent %q)", tc.name, got, tc.want, m.TextContent())
		}
	}
}
