package eventjson

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

func TestEncodeEvent(t *testing.T) {
	at := agenttest.Epoch
	user := agent.UserMessage("hi", at)
	partial := agent.Message{Role: agent.RoleAssistant, Content: []agent.Content{agent.Text("He")}, API: "test", Provider: "test", Model: "m", Timestamp: at}
	final := partial
	final.StopReason = agent.StopReasonStop
	failed := partial
	failed.StopReason, failed.ErrorMessage = agent.StopReasonError, "boom"
	call := agent.ToolCall("c1", "bash", map[string]any{"cmd": "ls"})
	result := agent.Message{Role: agent.RoleToolResult, ToolCallID: "c1", ToolName: "bash", Content: []agent.Content{agent.Text("a.go")}, Timestamp: at}

	msg := func(m agent.Message) string {
		b, err := agent.EncodeJSON(m)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	// USER, PARTIAL, FINAL, FAILED and RESULT stand for the messages' JSON.
	expand := strings.NewReplacer("USER", msg(user), "PARTIAL", msg(partial), "FINAL", msg(final), "FAILED", msg(failed), "RESULT", msg(result))

	cases := []struct {
		name string
		ev   agent.Event
		want string
	}{
		{"agent_start", agent.AgentStart{}, `{"type":"agent_start","sessionId":"s1"}`},
		{"agent_end", agent.AgentEnd{Messages: []agent.Message{user, final}}, `{"type":"agent_end","sessionId":"s1","messages":[USER,FINAL]}`},
		{"agent_end empty", agent.AgentEnd{}, `{"type":"agent_end","sessionId":"s1","messages":[]}`},
		{"turn_start", agent.TurnStart{}, `{"type":"turn_start","sessionId":"s1"}`},
		{"turn_end", agent.TurnEnd{Message: final, ToolResults: []agent.Message{result}}, `{"type":"turn_end","sessionId":"s1","message":FINAL,"toolResults":[RESULT]}`},
		{"turn_end without tools", agent.TurnEnd{Message: final}, `{"type":"turn_end","sessionId":"s1","message":FINAL,"toolResults":[]}`},
		{"message_start", agent.MessageStart{Message: user}, `{"type":"message_start","sessionId":"s1","message":USER}`},
		{"message_end", agent.MessageEnd{Message: final}, `{"type":"message_end","sessionId":"s1","message":FINAL}`},
		{
			"message_update start",
			agent.MessageUpdate{Message: partial, Event: agent.AssistantEvent{Type: agent.EventStart, Partial: partial}},
			`{"type":"message_update","sessionId":"s1","message":PARTIAL,"assistantMessageEvent":{"type":"start"}}`,
		},
		{
			"message_update text_start",
			agent.MessageUpdate{Message: partial, Event: agent.AssistantEvent{Type: agent.EventTextStart, Partial: partial}},
			`{"type":"message_update","sessionId":"s1","message":PARTIAL,"assistantMessageEvent":{"type":"text_start","contentIndex":0}}`,
		},
		{
			"message_update text_delta",
			agent.MessageUpdate{Message: partial, Event: agent.AssistantEvent{Type: agent.EventTextDelta, Delta: "He", Partial: partial}},
			`{"type":"message_update","sessionId":"s1","message":PARTIAL,"assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"He"}}`,
		},
		{
			"message_update thinking_delta",
			agent.MessageUpdate{Message: partial, Event: agent.AssistantEvent{Type: agent.EventThinkingDelta, ContentIndex: 2, Delta: "", Partial: partial}},
			`{"type":"message_update","sessionId":"s1","message":PARTIAL,"assistantMessageEvent":{"type":"thinking_delta","contentIndex":2,"delta":""}}`,
		},
		{
			"message_update text_end",
			agent.MessageUpdate{Message: partial, Event: agent.AssistantEvent{Type: agent.EventTextEnd, Content: "He", Partial: partial}},
			`{"type":"message_update","sessionId":"s1","message":PARTIAL,"assistantMessageEvent":{"type":"text_end","contentIndex":0,"content":"He"}}`,
		},
		{
			"message_update thinking_end",
			agent.MessageUpdate{Message: partial, Event: agent.AssistantEvent{Type: agent.EventThinkingEnd, ContentIndex: 1, Content: "hmm", Partial: partial}},
			`{"type":"message_update","sessionId":"s1","message":PARTIAL,"assistantMessageEvent":{"type":"thinking_end","contentIndex":1,"content":"hmm"}}`,
		},
		{
			"message_update toolcall_delta",
			agent.MessageUpdate{Message: partial, Event: agent.AssistantEvent{Type: agent.EventToolCallDelta, ContentIndex: 1, Delta: `{"cmd"`, Partial: partial}},
			`{"type":"message_update","sessionId":"s1","message":PARTIAL,"assistantMessageEvent":{"type":"toolcall_delta","contentIndex":1,"delta":"{\"cmd\""}}`,
		},
		{
			"message_update toolcall_end",
			agent.MessageUpdate{Message: partial, Event: agent.AssistantEvent{Type: agent.EventToolCallEnd, ContentIndex: 1, ToolCall: &call, Partial: partial}},
			`{"type":"message_update","sessionId":"s1","message":PARTIAL,"assistantMessageEvent":{"type":"toolcall_end","contentIndex":1,"toolCall":{"type":"toolCall","id":"c1","name":"bash","arguments":{"cmd":"ls"}}}}`,
		},
		{
			"message_update done",
			agent.MessageUpdate{Message: final, Event: agent.AssistantEvent{Type: agent.EventDone, Reason: agent.StopReasonStop, Partial: final}},
			`{"type":"message_update","sessionId":"s1","message":FINAL,"assistantMessageEvent":{"type":"done","reason":"stop","message":FINAL}}`,
		},
		{
			"message_update error",
			agent.MessageUpdate{Message: failed, Event: agent.AssistantEvent{Type: agent.EventError, Reason: agent.StopReasonError, Partial: failed}},
			`{"type":"message_update","sessionId":"s1","message":FAILED,"assistantMessageEvent":{"type":"error","reason":"error","error":FAILED}}`,
		},
		{
			"tool_execution_start",
			agent.ToolExecutionStart{ToolCallID: "c1", ToolName: "bash", Args: map[string]any{"cmd": "ls"}},
			`{"type":"tool_execution_start","sessionId":"s1","toolCallId":"c1","toolName":"bash","args":{"cmd":"ls"}}`,
		},
		{
			"tool_execution_start without args",
			agent.ToolExecutionStart{ToolCallID: "c1", ToolName: "ls"},
			`{"type":"tool_execution_start","sessionId":"s1","toolCallId":"c1","toolName":"ls","args":{}}`,
		},
		{
			"tool_execution_update",
			agent.ToolExecutionUpdate{ToolCallID: "c1", ToolName: "bash", Args: map[string]any{"cmd": "ls"},
				Partial: agent.ToolResult{Content: []agent.Content{agent.Text("a")}, Details: map[string]any{"lines": 1}}},
			`{"type":"tool_execution_update","sessionId":"s1","toolCallId":"c1","toolName":"bash","args":{"cmd":"ls"},"partialResult":{"content":[{"type":"text","text":"a"}],"details":{"lines":1}}}`,
		},
		{
			"tool_execution_end",
			agent.ToolExecutionEnd{ToolCallID: "c1", ToolName: "bash", Result: agent.ErrorResult("exit 2"), IsError: true},
			`{"type":"tool_execution_end","sessionId":"s1","toolCallId":"c1","toolName":"bash","result":{"content":[{"type":"text","text":"exit 2"}]},"isError":true}`,
		},
		{
			"queue_update",
			agent.QueueUpdate{Items: []agent.QueueItem{
				{ID: "q1", Kind: agent.QueueSteer, Text: "left"},
				{ID: "q2", Kind: agent.QueueFollowUp, Text: "then"},
				{ID: "q3", Kind: agent.QueueSteer, Text: "right"},
			}},
			`{"type":"queue_update","sessionId":"s1","steering":["left","right"],"followUp":["then"],"items":[{"id":"q1","kind":"steer","text":"left"},{"id":"q2","kind":"follow_up","text":"then"},{"id":"q3","kind":"steer","text":"right"}]}`,
		},
		{"queue_update empty", agent.QueueUpdate{}, `{"type":"queue_update","sessionId":"s1","steering":[],"followUp":[],"items":[]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Encode(tc.ev, "s1")
			if err != nil {
				t.Fatal(err)
			}
			if want := expand.Replace(tc.want); string(got) != want {
				t.Fatalf("\n got %s\nwant %s", got, want)
			}
			if !json.Valid(got) || bytes.ContainsAny(got, "\n") {
				t.Fatalf("not one JSON line: %s", got)
			}
		})
	}
}

func TestSessionHeader(t *testing.T) {
	got := string(SessionHeader("s_1", "/work", agenttest.Epoch))
	if want := `{"type":"session","version":3,"id":"s_1","timestamp":"2026-01-02T03:04:05Z","cwd":"/work"}`; got != want {
		t.Fatalf("\n got %s\nwant %s", got, want)
	}
}

func TestEncodeAnnotation(t *testing.T) {
	type info struct {
		Profile string `json:"profile"`
		Reason  string `json:"reason,omitempty"`
	}
	cases := []struct {
		name string
		data any
		want string
	}{
		{"fields follow the type", info{Profile: "p:a", Reason: "rate_limit"}, `{"type":"failover","sessionId":"s1","profile":"p:a","reason":"rate_limit"}`},
		{"no fields", struct{}{}, `{"type":"failover","sessionId":"s1"}`},
		{"not an object", "text", `{"type":"failover","sessionId":"s1","data":"text"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Encode(agent.Annotation{Kind: "failover", Data: tc.data}, "s1")
			if err != nil || string(got) != tc.want {
				t.Fatalf("got %s (%v), want %s", got, err, tc.want)
			}
		})
	}
}
