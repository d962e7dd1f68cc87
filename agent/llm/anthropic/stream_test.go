package anthropic

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
)

var stopOf = map[string]agent.StopReason{
	"end_turn":   agent.StopReasonStop,
	"max_tokens": agent.StopReasonLength,
	"tool_use":   agent.StopReasonToolUse,
}

// recordedUsage is the usage each recording reports in message_start and
// message_delta; the sidecars do not repeat it.
var recordedUsage = map[string]agent.Usage{
	"anthropic_text":                               {Input: 16, Output: 38},
	"anthropic_thinking_signature_tool_use":        {Input: 424, Output: 119},
	"anthropic_midstream_overloaded_RECONSTRUCTED": {Input: 16, Output: 5},
}

// TestRecordedStreams replays every recorded Messages stream, whole and in
// small irregular pieces, and compares the assembled message with the
// sidecar's expectations.
func TestRecordedStreams(t *testing.T) {
	for _, fx := range loadFixtures(t, "anthropic-messages") {
		for _, pieces := range []bool{false, true} {
			mode := "whole"
			if pieces {
				mode = "pieces"
			}
			t.Run(fx.name+"/"+mode, func(t *testing.T) {
				srv := sseServer(t, fx.body, pieces)
				events, msg := ask(t, Config{BaseURL: srv.URL, APIKey: "sk-ant-test"})
				checkFixture(t, fx, events, msg)
			})
		}
	}
}

func checkFixture(t *testing.T, fx fixture, events []agent.AssistantEvent, msg agent.Message) {
	t.Helper()
	want := fx.want
	if got := msg.TextContent(); got != want.ExpectedText {
		t.Errorf("text = %q, want %q", got, want.ExpectedText)
	}
	if got := thinkingOf(msg); got != want.ExpectedThinking {
		t.Errorf("thinking = %q, want %q", got, want.ExpectedThinking)
	}
	if got := signatureOf(msg); got != want.ExpectedSignature {
		t.Errorf("signature = %q, want %q", got, want.ExpectedSignature)
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
	u, ok := recordedUsage[fx.name]
	if !ok {
		t.Fatalf("no recorded usage for %s: add it to recordedUsage", fx.name)
	}
	if msg.Usage.Input != u.Input || msg.Usage.Output != u.Output || msg.Usage.CacheRead != 0 || msg.Usage.CacheWrite != 0 {
		t.Errorf("usage = %+v, want %+v", msg.Usage, u)
	}
	if want.ExpectedStop == nil {
		e := msg.Error
		if want.ExpectedError == nil || msg.StopReason != agent.StopReasonError || e == nil ||
			e.Kind != agent.ErrorStream || e.Type != want.ExpectedError.Type || e.Message != want.ExpectedError.Message {
			t.Fatalf("stop %s error %+v, want a stream error %+v", msg.StopReason, e, want.ExpectedError)
		}
		if !strings.Contains(e.Body, want.ExpectedError.Type) {
			t.Errorf("body = %q, want the error event", e.Body)
		}
		if last := events[len(events)-1]; last.Type != agent.EventError {
			t.Errorf("last event = %s, want error", last.Type)
		}
		return
	}
	if msg.Error != nil {
		t.Fatalf("error: %+v", msg.Error)
	}
	if exp := stopOf[*want.ExpectedStop]; msg.StopReason != exp {
		t.Errorf("stop = %s, want %s (%s)", msg.StopReason, exp, *want.ExpectedStop)
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

func signatureOf(m agent.Message) string {
	for _, c := range m.Content {
		if c.Type == agent.ContentThinking && !c.Redacted {
			return c.Signature
		}
	}
	return ""
}

func sse(event, data string) string { return "event: " + event + "\ndata: " + data + "\n\n" }

func messageStart(input, cacheRead, cacheWrite int) string {
	return sse("message_start", fmt.Sprintf(`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"usage":{"input_tokens":%d,"cache_read_input_tokens":%d,"cache_creation_input_tokens":%d,"output_tokens":1}}}`,
		input, cacheRead, cacheWrite))
}

func blockStart(i int, block string) string {
	return sse("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":%s}`, i, block))
}

func blockDelta(i int, delta string) string {
	return sse("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":%s}`, i, delta))
}

func blockStop(i int) string {
	return sse("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i))
}

func textBlock(i int, text string) string {
	return blockStart(i, `{"type":"text","text":""}`) + blockDelta(i, fmt.Sprintf(`{"type":"text_delta","text":%q}`, text)) + blockStop(i)
}

func messageEnd(stop string, output int) string {
	return sse("message_delta", fmt.Sprintf(`{"type":"message_delta","delta":{"stop_reason":%q,"stop_sequence":null},"usage":{"output_tokens":%d}}`, stop, output)) +
		sse("message_stop", `{"type":"message_stop"}`)
}

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
			srv := sseServer(t, []byte(tt.body), false)
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
	srv := sseServer(t, []byte(messageStart(1000, 2000, 400)+textBlock(0, "A")+messageEnd("end_turn", 100)), false)
	p := newProvider(t, Config{BaseURL: srv.URL})
	model := testModel
	model.Cost = agent.ModelCost{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}
	_, msg := drain(t, p.Stream(context.Background(), model, simpleContext, agent.StreamOptions{}))
	want := 0.003 + 0.0015 + 0.0006 + 0.0015
	if d := msg.Usage.Cost.Total - want; d > 1e-12 || d < -1e-12 {
		t.Errorf("cost = %+v, want total %v", msg.Usage.Cost, want)
	}
	if msg.Timestamp != t0 {
		t.Errorf("timestamp = %v, want the injected clock's %v", msg.Timestamp, t0)
	}
}
