package persistence

import (
	"errors"
	"testing"

	"github.com/steer-tui/steer/agent"
)

func TestRepair(t *testing.T) {
	now := at(1000)
	ls := agent.ToolCall("c1", "ls", map[string]any{})
	bash := agent.ToolCall("c2", "bash", map[string]any{"command": "make"})
	grep := agent.ToolCall("c3", "grep", map[string]any{"pattern": "x"})
	batch := assistantCalls(2, ls, bash, grep)
	interrupted := func(call agent.Content) agent.Message {
		return agent.Message{
			Role: agent.RoleToolResult, Content: []agent.Content{agent.Text(InterruptedToolText)},
			Timestamp: now, ToolCallID: call.ID, ToolName: call.Name, IsError: true,
		}
	}
	marker := agent.Message{
		Role: agent.RoleAssistant, Content: []agent.Content{}, Timestamp: now,
		API: batch.API, Provider: batch.Provider, Model: batch.Model,
		StopReason: agent.StopReasonAborted, ErrorMessage: InterruptedTurnText,
	}
	tests := []struct {
		name string
		msgs []agent.Message
		want []agent.Message
	}{
		{"empty", nil, nil},
		{"ends in a user message", []agent.Message{user("hi", 1)}, nil},
		{"no tool calls", []agent.Message{user("hi", 1), assistantText("hello", 2)}, nil},
		{"complete batch", []agent.Message{user("go", 1), batch,
			toolResult("c1", "ls", "a", 3), toolResult("c2", "bash", "ok", 4), toolResult("c3", "grep", "", 5)}, nil},
		{"complete batch out of order", []agent.Message{user("go", 1), batch,
			toolResult("c3", "grep", "", 3), toolResult("c1", "ls", "a", 4), toolResult("c2", "bash", "ok", 5)}, nil},
		{"complete batch then a steer", []agent.Message{user("go", 1), batch,
			toolResult("c1", "ls", "a", 3), toolResult("c2", "bash", "ok", 4), toolResult("c3", "grep", "", 5),
			user("now this", 6)}, nil},
		{"cut before any result", []agent.Message{user("go", 1), batch},
			[]agent.Message{interrupted(ls), interrupted(bash), interrupted(grep), marker}},
		{"cut in the middle of the batch", []agent.Message{user("go", 1), batch, toolResult("c1", "ls", "a", 3)},
			[]agent.Message{interrupted(bash), interrupted(grep), marker}},
		{"cut with the last result missing", []agent.Message{user("go", 1), batch,
			toolResult("c2", "bash", "ok", 3), toolResult("c1", "ls", "a", 4)},
			[]agent.Message{interrupted(grep), marker}},
		{"already repaired", []agent.Message{user("go", 1), batch, toolResult("c1", "ls", "a", 3),
			interrupted(bash), interrupted(grep), marker}, nil},
		{"aborted while streaming tool calls", []agent.Message{user("go", 1),
			{Role: agent.RoleAssistant, Content: []agent.Content{ls}, StopReason: agent.StopReasonAborted}}, nil},
		{"tool use without calls", []agent.Message{user("go", 1), assistantCalls(2)}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assertMessages(t, Repair(tt.msgs, now), tt.want)
		})
	}
}

func TestRepairSession(t *testing.T) {
	f := newFixture(t)
	ls := agent.ToolCall("c1", "ls", map[string]any{})
	bash := agent.ToolCall("c2", "bash", map[string]any{"command": "sleep 100"})
	cut := []agent.Message{user("go", 1), assistantCalls(2, ls, bash), toolResult("c1", "ls", "a", 3)}
	f.append(t, cut...)

	// The crashed run's writer is gone; the run that loads the session repairs it.
	beginRun(t, f, "r2")
	if _, err := f.store.RepairSession(f.ctx, testSession, testRun); !errors.Is(err, ErrStaleWriter) {
		t.Fatalf("a stale writer's repair gave %v", err)
	}
	fixed, err := f.store.RepairSession(f.ctx, testSession, "r2")
	if err != nil {
		t.Fatal(err)
	}
	if len(fixed) != 2 || fixed[0].ToolCallID != "c2" || !fixed[0].IsError ||
		fixed[1].StopReason != agent.StopReasonAborted {
		t.Fatalf("repair appended %+v", fixed)
	}
	assertMessages(t, f.transcript(t), append(cut, fixed...))
	if n := f.session(t).MessageCount; n != 5 {
		t.Errorf("message count %d, want 5", n)
	}
	again, err := f.store.RepairSession(f.ctx, testSession, "r2")
	if err != nil || again != nil {
		t.Fatalf("a second repair appended %+v, %v", again, err)
	}
}
