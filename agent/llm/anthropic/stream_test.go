package anthropic

import (
	"context"
	"reflect"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/llmtest"
)

// TestStreamShapes covers what the recordings do not: redacted thinking,
// other stop reasons, a tool call whose input comes whole, cache usage,
// empty and truncated responses.
func TestStreamShapes(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		stop    agent.StopReason
		text    string
		content []agent.Content
		usage   agent.Usage
		kind    agent.ErrorKind
		errType string
	}{
		{name: "redacted thinking then text",
			body: messageStart(10, 0, 0) + blockStart(0, `{"type":"redacted_thinking","data":"EncryptedBlob=="}`) + blockStop(0) +
				textBlock(1, "Hi") + messageEnd("end_turn", 3),
			stop: agent.StopReasonStop, text: "Hi", usage: agent.Usage{Input: 10, Output: 3},
			content: []agent.Content{
				{Type: agent.ContentThinking, Redacted: true, Signature: "EncryptedBlob=="}, agent.Text("Hi")}},
		{name: "text sent with the block start",
			body: messageStart(10, 0, 0) + blockStart(0, `{"type":"text","text":"Hel"}`) + blockStop(0) + messageEnd("end_turn", 2),
			stop: agent.StopReasonStop, text: "Hel", usage: agent.Usage{Input: 10, Output: 2}},
		{name: "max tokens", body: messageStart(10, 0, 0) + textBlock(0, "Hel") + messageEnd("max_tokens", 2),
			stop: agent.StopReasonLength, text: "Hel", usage: agent.Usage{Input: 10, Output: 2}},
		{name: "stop sequence", body: messageStart(10, 0, 0) + textBlock(0, "A") + messageEnd("stop_sequence", 2),
			stop: agent.StopReasonStop, text: "A", usage: agent.Usage{Input: 10, Output: 2}},
		{name: "cache read and write", body: messageStart(5, 1000, 200) + textBlock(0, "A") + messageEnd("end_turn", 2),
			stop: agent.StopReasonStop, text: "A", usage: agent.Usage{Input: 5, Output: 2, CacheRead: 1000, CacheWrite: 200}},
		{name: "tool input sent whole",
			body: messageStart(10, 0, 0) + blockStart(0, `{"type":"tool_use","id":"toolu_1","name":"ls","input":{"path":"."}}`) +
				blockStop(0) + messageEnd("tool_use", 4),
			stop: agent.StopReasonToolUse, usage: agent.Usage{Input: 10, Output: 4},
			content: []agent.Content{agent.ToolCall("toolu_1", "ls", map[string]any{"path": "."})}},
		{name: "server tool blocks are skipped",
			body: messageStart(10, 0, 0) + blockStart(0, `{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}`) +
				blockDelta(0, `{"type":"input_json_delta","partial_json":"{\"q\":1}"}`) + blockStop(0) +
				textBlock(1, "Found.") + messageEnd("end_turn", 4),
			stop: agent.StopReasonStop, text: "Found.", usage: agent.Usage{Input: 10, Output: 4}},
		{name: "refusal", body: messageStart(10, 0, 0) + textBlock(0, "I") + messageEnd("refusal", 2),
			stop: agent.StopReasonError, text: "I", kind: agent.ErrorStream, errType: "refusal", usage: agent.Usage{Input: 10, Output: 2}},
		{name: "context window exceeded", body: messageStart(10, 0, 0) + textBlock(0, "I") + messageEnd("model_context_window_exceeded", 2),
			stop: agent.StopReasonError, text: "I", kind: agent.ErrorStream, errType: "model_context_window_exceeded",
			usage: agent.Usage{Input: 10, Output: 2}},
		{name: "empty", body: messageStart(10, 0, 0) + messageEnd("end_turn", 1),
			stop: agent.StopReasonError, kind: agent.ErrorEmpty, usage: agent.Usage{Input: 10, Output: 1}},
		{name: "no body at all", stop: agent.StopReasonError, kind: agent.ErrorEmpty},
		{name: "cut before message_stop", body: messageStart(10, 0, 0) + textBlock(0, "Hel"),
			stop: agent.StopReasonError, text: "Hel", kind: agent.ErrorStream, usage: agent.Usage{Input: 10, Output: 1}},
		{name: "input delta outside a tool block",
			body: messageStart(10, 0, 0) + blockStart(0, `{"type":"text","text":""}`) +
				blockDelta(0, `{"type":"input_json_delta","partial_json":"{"}`),
			stop: agent.StopReasonError, kind: agent.ErrorMalformed, usage: agent.Usage{Input: 10, Output: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.SSEServer(t, []byte(tt.body), false)
			_, msg := ask(t, Config{BaseURL: srv.URL})
			if msg.StopReason != tt.stop || msg.TextContent() != tt.text {
				t.Errorf("got %s %q, want %s %q", msg.StopReason, msg.TextContent(), tt.stop, tt.text)
			}
			if tt.content != nil && !reflect.DeepEqual(msg.Content, tt.content) {
				t.Errorf("content = %+v, want %+v", msg.Content, tt.content)
			}
			if u := msg.Usage; u.Input != tt.usage.Input || u.Output != tt.usage.Output ||
				u.CacheRead != tt.usage.CacheRead || u.CacheWrite != tt.usage.CacheWrite {
				t.Errorf("usage = %+v, want %+v", u, tt.usage)
			}
			if tt.kind == "" {
				if msg.Error != nil {
					t.Errorf("error = %+v", msg.Error)
				}
				return
			}
			if msg.Error == nil || msg.Error.Kind != tt.kind || msg.Error.Type != tt.errType {
				t.Errorf("error = %+v, want kind %s type %q", msg.Error, tt.kind, tt.errType)
			}
		})
	}
}

// TestStreamCost checks the price of a response with cache traffic.
func TestStreamCost(t *testing.T) {
	srv := llmtest.SSEServer(t, []byte(messageStart(1000, 2000, 400)+textBlock(0, "A")+messageEnd("end_turn", 100)), false)
	p := newProvider(t, Config{BaseURL: srv.URL})
	model := testModel
	model.Cost = agent.ModelCost{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}
	_, msg := llmtest.Drain(t, p.Stream(context.Background(), model, llmtest.Prompt, agent.StreamOptions{}))
	want := 0.003 + 0.0015 + 0.0006 + 0.0015
	if d := msg.Usage.Cost.Total - want; d > 1e-12 || d < -1e-12 {
		t.Errorf("cost = %+v, want total %v", msg.Usage.Cost, want)
	}
	if msg.Timestamp != t0 {
		t.Errorf("timestamp = %v, want the injected clock's %v", msg.Timestamp, t0)
	}
}
