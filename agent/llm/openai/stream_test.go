package openai

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
)

var stopOf = map[string]agent.StopReason{
	"stop":       agent.StopReasonStop,
	"length":     agent.StopReasonLength,
	"tool_calls": agent.StopReasonToolUse,
}

// TestRecordedStreams replays every recorded Chat Completions stream, whole
// and in small irregular pieces, and compares the assembled message with the
// sidecar's expectations.
func TestRecordedStreams(t *testing.T) {
	for _, fx := range loadFixtures(t, "openai-chat") {
		for _, pieces := range []bool{false, true} {
			mode := "whole"
			if pieces {
				mode = "pieces"
			}
			t.Run(fx.name+"/"+mode, func(t *testing.T) {
				srv := sseServer(t, fx.body, pieces)
				events, msg := ask(t, Config{BaseURL: srv.URL + "/v1", APIKey: "sk-test"})
				checkFixture(t, fx.want, events, msg)
			})
		}
	}
}

func checkFixture(t *testing.T, want sidecar, events []agent.AssistantEvent, msg agent.Message) {
	t.Helper()
	if msg.Error != nil {
		t.Fatalf("error: %+v", msg.Error)
	}
	if got := msg.TextContent(); got != want.ExpectedText {
		t.Errorf("text = %q, want %q", got, want.ExpectedText)
	}
	if got := thinkingOf(msg); got != want.ExpectedReasoning {
		t.Errorf("reasoning = %q, want %q", got, want.ExpectedReasoning)
	}
	calls := msg.ToolCalls()
	if len(calls) != len(want.ExpectedCalls) {
		t.Fatalf("tool calls = %+v, want %d", calls, len(want.ExpectedCalls))
	}
	for i, c := range calls {
		w := want.ExpectedCalls[i]
		if c.Name != w.Name || c.ID != w.ID {
			t.Errorf("call %d = %s %s, want %s %s", i, c.ID, c.Name, w.ID, w.Name)
		}
		if got, exp := jsonValue(t, c.Arguments), jsonValue(t, w.Arguments); !reflect.DeepEqual(got, exp) {
			t.Errorf("call %d arguments = %v, want %v", i, got, exp)
		}
	}
	if want.ExpectedStop == nil {
		t.Fatal("every chat fixture has an expected stop")
	}
	if exp := stopOf[*want.ExpectedStop]; msg.StopReason != exp {
		t.Errorf("stop = %s, want %s (%s)", msg.StopReason, exp, *want.ExpectedStop)
	}
	if want.ExpectedUsage != nil {
		prompt, _ := want.ExpectedUsage["prompt_tokens"].(float64)
		completion, _ := want.ExpectedUsage["completion_tokens"].(float64)
		u := msg.Usage
		if u.Input+u.CacheRead+u.CacheWrite != int(prompt) || u.Output != int(completion) {
			t.Errorf("usage = %+v, want prompt %v completion %v", u, prompt, completion)
		}
	}
	checkEvents(t, events, msg)
}

// checkEvents checks the shape every stream must have: start first, done
// last, and deltas that add up to the final content.
func checkEvents(t *testing.T, events []agent.AssistantEvent, msg agent.Message) {
	t.Helper()
	if len(events) < 2 || events[0].Type != agent.EventStart || events[len(events)-1].Type != agent.EventDone {
		t.Fatalf("events = %v, want start … done", types(events))
	}
	var text, thinking strings.Builder
	for _, ev := range events {
		switch ev.Type {
		case agent.EventTextDelta:
			text.WriteString(ev.Delta)
		case agent.EventThinkingDelta:
			thinking.WriteString(ev.Delta)
		}
	}
	if text.String() != msg.TextContent() || thinking.String() != thinkingOf(msg) {
		t.Errorf("deltas add up to %q / %q, message has %q / %q",
			text.String(), thinking.String(), msg.TextContent(), thinkingOf(msg))
	}
	if !reflect.DeepEqual(events[len(events)-1].Partial, msg) {
		t.Error("done's message differs from the result")
	}
}

func types(events []agent.AssistantEvent) []agent.AssistantEventType {
	out := make([]agent.AssistantEventType, len(events))
	for i, ev := range events {
		out[i] = ev.Type
	}
	return out
}

func chunk(delta string) string {
	return `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":` + delta + `,"finish_reason":null}]}` + "\n\n"
}

func finish(reason string) string {
	return `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"` + reason + `"}]}` + "\n\n"
}

const done = "data: [DONE]\n\n"

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
			calls: []agent.Content{agent.ToolCall("a", "ls", map[string]any{}), agent.ToolCall("b", "ls", map[string]any{})}},
		{name: "openrouter error finish", body: chunk(`{"content":"I"}`) + finish("error") + done,
			stop: agent.StopReasonError, text: "I", kind: agent.ErrorStream},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := sseServer(t, []byte(tt.body), false)
			_, msg := ask(t, Config{BaseURL: srv.URL})
			if msg.StopReason != tt.stop || msg.TextContent() != tt.text || thinkingOf(msg) != tt.thinking {
				t.Errorf("got %s %q %q, want %s %q %q", msg.StopReason, msg.TextContent(), thinkingOf(msg), tt.stop, tt.text, tt.thinking)
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
	srv := sseServer(t, []byte(body), false)
	p := newProvider(t, Config{BaseURL: srv.URL})
	model := testModel
	model.Cost = agent.ModelCost{Input: 2, Output: 10, CacheRead: 0.5}
	_, msg := drain(t, p.Stream(context.Background(), model, simpleContext, agent.StreamOptions{}))
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
