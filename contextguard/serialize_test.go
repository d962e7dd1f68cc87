package contextguard

import (
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
)

func TestSerializeMessage(t *testing.T) {
	withImage := userAt("what is in this picture?", t0)
	withImage.Content = append(withImage.Content, image())
	failed := resultFor("c", "bash", "command not found")
	failed.IsError = true
	aborted := agent.Message{Role: agent.RoleAssistant, StopReason: agent.StopReasonAborted, ErrorMessage: "aborted by the user"}
	cases := []struct {
		name string
		m    agent.Message
		want string
	}{
		{"user", userAt("fix the build", t0), "[User]: fix the build"},
		{"user with an image", withImage, "[User]: what is in this picture?\n[image]"},
		{"tool result", resultFor("c", "read", "package main\n"), "[Tool result read]: package main"},
		{"failed tool result", failed, "[Tool result bash (error)]: command not found"},
		{"assistant with thinking and a call", agent.Message{Role: agent.RoleAssistant, Content: []agent.Content{
			{Type: agent.ContentThinking, Thinking: "the port is wrong"},
			agent.Text("Let me check."),
			agent.ToolCall("c", "bash", map[string]any{"command": "ss -ltn"}),
		}}, "[Assistant thinking]: the port is wrong\n[Assistant]: Let me check.\n[Assistant tool call]: bash {\"command\":\"ss -ltn\"}"},
		{"aborted answer", aborted, "[Assistant aborted]: aborted by the user"},
		{"earlier summary", SummaryMessage("## Goal\nship", t0), "[Earlier summary]:\n## Goal\nship"},
		{"empty text is left out", userAt("  ", t0), ""},
	}
	for _, c := range cases {
		if got := serializeMessage(c.m); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

func TestSerializeCapsPiecesHeadAndTail(t *testing.T) {
	big := "FIRST LINE\n" + boring(30_000) + "\nLAST LINE\n" // a boring tail is kept all the same
	for _, m := range []agent.Message{
		resultFor("c", "read", big),
		assistantCall("c", "write", map[string]any{"content": big}),
		{Role: agent.RoleAssistant, Content: []agent.Content{{Type: agent.ContentThinking, Thinking: big}}},
	} {
		got := serializeMessage(m)
		if len(got) > summaryPieceChars+100 || !strings.Contains(got, "FIRST LINE") || !strings.Contains(got, "LAST LINE") {
			t.Errorf("%s piece not capped to head and tail: %d bytes", m.Role, len(got))
		}
	}
	if got := serializeMessage(userAt(big, t0)); !strings.Contains(got, boring(30_000)) {
		t.Error("the user's own words were capped")
	}
}

func TestFitChunks(t *testing.T) {
	chunks := []chunk{{"a", 100}, {"b", 200}, {"c", 300}}
	cases := []struct {
		budget   int
		kept     string
		omitted  int
		lastCuts bool
	}{
		{1_000, "abc", 0, false},
		{600, "abc", 0, false},
		{599, "bc", 1, false},
		{300, "c", 2, false},
		{299, "c", 2, true},
	}
	for _, c := range cases {
		kept, omitted := fitChunks(chunks, c.budget)
		var texts []string
		for _, k := range kept {
			texts = append(texts, k.text[:1])
		}
		if strings.Join(texts, "") != c.kept || omitted != c.omitted {
			t.Errorf("budget %d: kept %v omitted %d", c.budget, texts, omitted)
		}
	}
	long := []chunk{{text: boring(50_000), tokens: chunkTokens(boring(50_000), agent.RoleToolResult)}}
	kept, _ := fitChunks(long, 2_000)
	if kept[0].tokens > 2_000 || !IsTruncated(kept[0].text) {
		t.Fatalf("a lone chunk over the budget measures %d tokens", kept[0].tokens)
	}
}
