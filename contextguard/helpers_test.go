package contextguard

import (
	"time"

	"github.com/steer-tui/steer/agent"
)

// t0 is the tests' clock origin.
var t0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

func toolResultOf(text string) agent.Message {
	return agent.Message{Role: agent.RoleToolResult, ToolCallID: "call", ToolName: "bash",
		Content: []agent.Content{agent.Text(text)}, Timestamp: t0}
}

func userAt(text string, at time.Time) agent.Message { return agent.UserMessage(text, at) }

func assistantText(text string) agent.Message {
	return agent.Message{Role: agent.RoleAssistant, Content: []agent.Content{agent.Text(text)},
		StopReason: agent.StopReasonStop, Timestamp: t0}
}

func assistantCall(id, name string, args map[string]any) agent.Message {
	return agent.Message{Role: agent.RoleAssistant, Content: []agent.Content{agent.ToolCall(id, name, args)},
		StopReason: agent.StopReasonToolUse, Timestamp: t0}
}

func resultFor(id, name, text string) agent.Message {
	m := toolResultOf(text)
	m.ToolCallID, m.ToolName = id, name
	return m
}

func image() agent.Content {
	return agent.Content{Type: agent.ContentImage, MimeType: "image/png", Data: "iVBORw0KGgo="}
}
