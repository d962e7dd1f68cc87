package export

import (
	"time"

	"github.com/steer-tui/steer/agent"
)

// fakeKey is a made-up key of OpenAI's shape; it must never leave an export.
const fakeKey = "sk-proj-FAKEfake0123456789abcdefABCDEF"

var t0 = time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)

func at(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }

func msg(id, parent string, m agent.Message) Entry {
	return Entry{ID: id, ParentID: parent, Type: TypeMessage, Message: &m, Time: m.Timestamp}
}

// fixture is a session with two branches from u2's parent: the current one
// (leaf a3) reads a file whose output holds fakeKey; the other (leaf b1)
// asks something else.
func fixture() Session {
	return Session{
		ID: "s1", Title: "Fix the <script> bug", Name: "the script bug",
		Queue: []agent.QueueItem{{ID: "q1", Kind: agent.QueueFollowUp, Text: "then run the tests", Created: at(8)}}, Workspace: "/w", Model: "m1", Created: t0, Leaf: "a3",
		Entries: []Entry{
			msg("u1", "", agent.UserMessage("<script>alert(1)</script> read README.md", at(1))),
			msg("a1", "u1", agent.Message{Role: agent.RoleAssistant, Timestamp: at(2), Model: "m1", StopReason: agent.StopReasonToolUse,
				Content: []agent.Content{
					{Type: agent.ContentThinking, Thinking: "the user wants the readme"},
					agent.Text("Reading it. See [docs](https://example.com/docs) ![x](https://example.com/x.png)\n\n```go\nfunc main() {}\n```"),
					agent.ToolCall("c1", "read", map[string]any{"path": "README.md"}),
				}}),
			msg("r1", "a1", agent.Message{Role: agent.RoleToolResult, Timestamp: at(3), ToolCallID: "c1", ToolName: "read",
				Content: []agent.Content{agent.Text("OPENAI_API_KEY=" + fakeKey + "\n```\nnested fence\n```")}}),
			{ID: "k1", ParentID: "r1", Type: TypeCompaction, Summary: "read the readme",
				Context: []agent.Message{agent.UserMessage("summary: read the readme", at(4))}, FirstKeptID: "r1", TokensBefore: 900, TokensAfter: 120, Time: at(4)},
			msg("u2", "k1", agent.UserMessage("now fix it", at(5))),
			msg("a3", "u2", agent.Message{Role: agent.RoleAssistant, Timestamp: at(6), Model: "m1", StopReason: agent.StopReasonStop,
				Content: []agent.Content{agent.Text("Done.")}}),
			msg("b1", "k1", agent.UserMessage("other branch question", at(7))),
		},
	}
}
