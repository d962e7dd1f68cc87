package scripted

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

var t0 = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

func fixedNow() time.Time { return t0 }

// testTools are the tools most requests offer: read, ls and bash (no grep).
var testTools = []agent.ToolSpec{
	{Name: "read", Description: "Read a file", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)},
	{Name: "ls", Description: "List a directory", Parameters: json.RawMessage(`{"type":"object"}`)},
	{Name: "bash", Description: "Run a command", Parameters: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}}}`)},
}

func user(text string) agent.Message { return agent.UserMessage(text, t0) }

func assistant(text string, calls ...agent.Content) agent.Message {
	m := agent.Message{Role: agent.RoleAssistant, Timestamp: t0, StopReason: agent.StopReasonStop}
	if text != "" {
		m.Content = append(m.Content, agent.Text(text))
	}
	m.Content = append(m.Content, calls...)
	if len(calls) > 0 {
		m.StopReason = agent.StopReasonToolUse
	}
	return m
}

func toolResult(call agent.Content, text string, isError bool) agent.Message {
	return agent.Message{
		Role: agent.RoleToolResult, ToolCallID: call.ID, ToolName: call.Name,
		Content: []agent.Content{agent.Text(text)}, IsError: isError, Timestamp: t0,
	}
}

func llmOf(msgs ...agent.Message) agent.LLMContext {
	return agent.LLMContext{SystemPrompt: "You are a test.", Messages: msgs, Tools: testTools}
}

// drain reads every event, then the result.
func drain(t *testing.T, stream *agent.AssistantStream) ([]agent.AssistantEvent, agent.Message) {
	t.Helper()
	var events []agent.AssistantEvent
	for ev := range stream.Events() {
		events = append(events, ev)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	msg, err := stream.Result(ctx)
	if err != nil {
		t.Fatalf("Result: %v", err)
	}
	return events, msg
}

// ask streams one request through p with the default model and no context
// deadline.
func ask(t *testing.T, p *Provider, llm agent.LLMContext, opts agent.StreamOptions) ([]agent.AssistantEvent, agent.Message) {
	t.Helper()
	return drain(t, p.Stream(context.Background(), DefaultModel(), llm, opts))
}

func newTestProvider(sc *Scenario) *Provider {
	return New(Options{Scenario: sc, Now: fixedNow})
}

func types(events []agent.AssistantEvent) []agent.AssistantEventType {
	out := make([]agent.AssistantEventType, len(events))
	for i, ev := range events {
		out[i] = ev.Type
	}
	return out
}

func count(events []agent.AssistantEvent, typ agent.AssistantEventType) int {
	n := 0
	for _, ev := range events {
		if ev.Type == typ {
			n++
		}
	}
	return n
}
