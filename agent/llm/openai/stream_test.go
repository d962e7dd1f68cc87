package openai

import (
	"context"
	"reflect"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/llmtest"
)

// TestStreamShapes covers what the recordings do not: other finish reasons,
// reasoning in the reasoning field, calls without an index, empty and
// truncated responses.
func TestStreamShapes(t *testing.T) {
	tests := []struct {
		name     string
		body     string
		stop     agent.StopReason
		text     string
		thinking string
		calls    []agent.Content
		kind     agent.ErrorKind
		errType  string
	}{
		{name: "length", body: chunk(`{"content":"Hel"}`) + finish("length") + done,
			stop: agent.StopReasonLength, text: "Hel"},
		{name: "stop with calls is toolUse",
			body: chunk(`{"tool_calls":[{"index":0,"id":"c1","function":{"name":"ls","arguments":"{}"}}]}`) + finish("stop") + done,
			stop: agent.StopReasonToolUse, calls: []agent.Content{agent.ToolCall("c1", "ls", map[string]any{})}},
		{name: "openrouter reasoning field",
			body: chunk(`{"reasoning":"Hmm."}`) + chunk(`{"content":"Hi"}`) + finish("stop") + done,
			stop: agent.StopReasonStop, text: "Hi", thinking: "Hmm."},
		{name: "reasoning_content wins over reasoning",
			body: chunk(`{"reasoning_content":"A","reasoning":"A"}`) + chunk(`{"content":"B"}`) + finish("stop") + done,
			stop: agent.StopReasonStop, text: "B", thinking: "A"},
		{name: "calls without index",
			body: chunk(`{"tool_calls":[{"id":"a","function":{"name":"ls","arguments":"{\"p\":"}}]}`) +
				chunk(`{"tool_calls":[{"function":{"arguments":"1}"}}]}`) +
				chunk(`{"tool_calls":[{"id":"b","function":{"name":"read","arguments":"{}"}}]}`) + finish("tool_calls") + done,
			stop: agent.StopReasonToolUse, calls: []agent.Content{
				agent.ToolCall("a", "ls", map[string]any{"p": float64(1)}),
				agent.ToolCall("b", "read", map[string]any{})}},
		{name: "content filter", body: chunk(`{"content":"I"}`) + finish("content_filter") + done,
			stop: agent.StopReasonError, text: "I", kind: agent.ErrorStream, errType: "content_filter"},
		{name: "empty", body: chunk(`{"role":"assistant","content":""}`) + finish("stop") + done,
			stop: agent.StopReasonError, kind: agent.ErrorEmpty},
		{name: "no body at all", body: "",
			stop: agent.StopReasonError, kind: agent.ErrorEmpty},
		{name: "cut before finish", body: chunk(`{"content":"Hel"}`),
			stop: agent.StopReasonError, text: "Hel", kind: agent.ErrorStream},
		{name: "interleaved calls",
			body: chunk(`{"tool_calls":[{"index":0,"id":"a","function":{"name":"ls","arguments":"{"}}]}`) +
				chunk(`{"tool_calls":[{"index":1,"id":"b","function":{"name":"ls","arguments":"{"}}]}`) +
				chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"}"}}]}`) + finish("tool_calls") + done,
			stop: agent.StopReasonError, kind: agent.ErrorMalformed,
			calls: []agent.Content{ // neither call's arguments parse whole
				{Type: agent.ContentToolCall, ID: "a", Name: "ls", Arguments: map[string]any{}, Incomplete: true},
				{Type: agent.ContentToolCall, ID: "b", Name: "ls", Arguments: map[string]any{}, Incomplete: true}}},
		{name: "openrouter error finish", body: chunk(`{"content":"I"}`) + finish("error") + done,
			stop: agent.StopReasonError, text: "I", kind: agent.ErrorStream},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.SSEServer(t, []byte(tt.body), false)
			_, msg := ask(t, Config{BaseURL: srv.URL})
			if msg.StopReason != tt.stop || msg.TextContent() != tt.text || llmtest.ThinkingOf(msg) != tt.thinking {
				t.Errorf("got %s %q %q, want %s %q %q", msg.StopReason, msg.TextContent(), llmtest.ThinkingOf(msg), tt.stop, tt.text, tt.thinking)
			}
			if calls := msg.ToolCalls(); !reflect.DeepEqual(calls, tt.calls) {
				t.Errorf("calls = %+v, want %+v", calls, tt.calls)
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

// TestStreamUsageAndCost checks the split of cached tokens and the price.
func TestStreamUsageAndCost(t *testing.T) {
	body := chunk(`{"content":"Hi"}`) + finish("stop") +
		`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":1000,"completion_tokens":100,"total_tokens":1100,"prompt_tokens_details":{"cached_tokens":400}}}` + "\n\n" + done
	srv := llmtest.SSEServer(t, []byte(body), false)
	p := newProvider(t, Config{BaseURL: srv.URL})
	model := testModel
	model.Cost = agent.ModelCost{Input: 2, Output: 10, CacheRead: 0.5}
	_, msg := llmtest.Drain(t, p.Stream(context.Background(), model, llmtest.Prompt, agent.StreamOptions{}))
	want := agent.Usage{Input: 600, Output: 100, CacheRead: 400, Cost: agent.Cost{
		Input: 0.0012, Output: 0.001, CacheRead: 0.0002, Total: 0.0024}}
	got := msg.Usage
	if got.Input != want.Input || got.Output != want.Output || got.CacheRead != want.CacheRead {
		t.Errorf("usage = %+v, want %+v", got, want)
	}
	if d := got.Cost.Total - want.Cost.Total; d > 1e-12 || d < -1e-12 {
		t.Errorf("cost = %+v, want %+v", got.Cost, want.Cost)
	}
	if msg.Timestamp != t0 {
		t.Errorf("timestamp = %v, want the injected clock's %v", msg.Timestamp, t0)
	}
}
