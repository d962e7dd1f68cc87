package agent_test

import (
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

func TestReplayable(t *testing.T) {
	user := agent.UserMessage("hi", time.Time{})
	call := agent.ToolCall("c1", "bash", map[string]any{})
	asking := agent.Message{Role: agent.RoleAssistant, StopReason: agent.StopReasonToolUse, Content: []agent.Content{call}}
	result := agent.Message{Role: agent.RoleToolResult, ToolCallID: "c1", ToolName: "bash"}
	stray := agent.Message{Role: agent.RoleToolResult, ToolCallID: "zz", ToolName: "bash"}
	aborted := agent.Message{Role: agent.RoleAssistant, StopReason: agent.StopReasonAborted}
	failed := agent.Message{Role: agent.RoleAssistant, StopReason: agent.StopReasonError}
	tests := []struct {
		name string
		in   []agent.Message
		want []string // role:toolCallId, with "!" for a synthetic result
	}{
		{"complete batch", []agent.Message{user, asking, result}, []string{"user:", "assistant:", "toolResult:c1"}},
		{"aborted marker dropped", []agent.Message{user, asking, result, aborted}, []string{"user:", "assistant:", "toolResult:c1"}},
		{"failed turn dropped", []agent.Message{user, failed, user}, []string{"user:", "user:"}},
		{"unanswered call answered", []agent.Message{user, asking, user}, []string{"user:", "assistant:", "toolResult:c1!", "user:"}},
		{"stray result dropped", []agent.Message{user, stray}, []string{"user:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, m := range agent.Replayable(tt.in) {
				s := string(m.Role) + ":" + m.ToolCallID
				if m.IsError && m.TextContent() == agent.NoToolResult {
					s += "!"
				}
				got = append(got, s)
			}
			equalTraces(t, got, tt.want)
		})
	}
}

func TestModelCostPrice(t *testing.T) {
	c := agent.ModelCost{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}
	got := c.Price(agent.Usage{Input: 1_000_000, Output: 100_000, CacheRead: 2_000_000, CacheWrite: 0})
	want := agent.Cost{Input: 3, Output: 1.5, CacheRead: 0.6, Total: 5.1}
	if got.Input != want.Input || got.Output != want.Output || got.CacheRead != want.CacheRead || got.Total < 5.0999 || got.Total > 5.1001 {
		t.Fatalf("Price = %+v, want %+v", got, want)
	}
}
