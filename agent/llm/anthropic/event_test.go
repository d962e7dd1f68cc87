package anthropic

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/respjson"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/ssestream"

	"github.com/steer-tui/steer/agent/llm/llmtest"
)

// The SDK's own decoding is the oracle: the lean decoder must read every
// stream as the SDK stream read it, field for field, and end it the same way.

func response(body []byte) *http.Response {
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"text/event-stream"}, "Request-Id": {"req_1"}},
		Body: io.NopCloser(bytes.NewReader(body)), Request: &http.Request{Method: http.MethodPost}}
}

// sdkEvents reads body with the SDK stream and what the handler used to read
// of each event.
func sdkEvents(body []byte) ([]messageEvent, error) {
	s := ssestream.NewStream[sdk.MessageStreamEventUnion](ssestream.NewDecoder(response(body)), nil)
	var out []messageEvent
	for s.Next() {
		out = append(out, fromSDK(s.Current()))
	}
	return out, s.Err()
}

func count(n int64, f respjson.Field) (int64, bool) {
	if !f.Valid() {
		return 0, false
	}
	return n, true
}

func fromSDK(ev sdk.MessageStreamEventUnion) messageEvent {
	var out messageEvent
	out.Type = utf8Like(ev.Type)
	mu := ev.Message.Usage
	out.MessageUsage.Input, out.MessageUsage.HasInput = count(mu.InputTokens, mu.JSON.InputTokens)
	out.MessageUsage.Output, out.MessageUsage.HasOutput = count(mu.OutputTokens, mu.JSON.OutputTokens)
	out.MessageUsage.CacheRead, out.MessageUsage.HasCacheRead = count(mu.CacheReadInputTokens, mu.JSON.CacheReadInputTokens)
	out.MessageUsage.CacheWrite, out.MessageUsage.HasCacheWrite = count(mu.CacheCreationInputTokens, mu.JSON.CacheCreationInputTokens)
	cb := ev.ContentBlock
	out.ContentBlock = contentBlock{Type: utf8Like(cb.Type), Text: utf8Like(cb.Text), Thinking: utf8Like(cb.Thinking),
		Signature: utf8Like(cb.Signature), Data: utf8Like(cb.Data), ID: utf8Like(cb.ID), Name: utf8Like(cb.Name)}
	if m, ok := cb.Input.(map[string]any); ok && len(m) > 0 {
		if raw, err := json.Marshal(m); err == nil {
			out.ContentBlock.Input = string(raw)
		}
	}
	d := ev.Delta
	out.Delta = eventDelta{Type: utf8Like(d.Type), Text: utf8Like(d.Text), Thinking: utf8Like(d.Thinking), Signature: utf8Like(d.Signature),
		PartialJSON: utf8Like(d.PartialJSON), StopReason: utf8Like(string(d.StopReason))}
	u := ev.Usage
	out.Usage.Input, out.Usage.HasInput = count(u.InputTokens, u.JSON.InputTokens)
	out.Usage.Output, out.Usage.HasOutput = count(u.OutputTokens, u.JSON.OutputTokens)
	out.Usage.CacheRead, out.Usage.HasCacheRead = count(u.CacheReadInputTokens, u.JSON.CacheReadInputTokens)
	out.Usage.CacheWrite, out.Usage.HasCacheWrite = count(u.CacheCreationInputTokens, u.JSON.CacheCreationInputTokens)
	return out
}

// utf8Like is s as encoding/json, and so the lean decoder, reads it: each
// byte of invalid UTF-8 is U+FFFD, where the SDK passes the bytes through.
func utf8Like(s string) string { return string([]rune(s)) }

// leanEvents reads body with eventStream.
func leanEvents(body []byte) ([]messageEvent, error) {
	resp := response(body)
	s := newEventStream(ssestream.NewStream[sdk.MessageStreamEventUnion](ssestream.NewDecoder(resp), nil), resp)
	var out []messageEvent
	for s.Next() {
		out = append(out, *s.Current())
	}
	return out, s.Err()
}

// sameReading fails unless both decoders read body alike.
func sameReading(t *testing.T, body []byte) {
	t.Helper()
	want, wantErr := sdkEvents(body)
	got, err := leanEvents(body)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("body %q\nlean: %+v\nSDK:  %+v", body, got, want)
	}
	var ae, wae *sdk.Error
	switch {
	case (err == nil) != (wantErr == nil):
		t.Fatalf("body %q: lean error %v, SDK error %v", body, err, wantErr)
	case errors.As(wantErr, &wae) != errors.As(err, &ae):
		t.Fatalf("body %q: lean error %#v, SDK error %#v", body, err, wantErr)
	case ae != nil && (ae.RawJSON() != wae.RawJSON() || ae.StatusCode != wae.StatusCode || ae.RequestID != wae.RequestID):
		t.Fatalf("body %q: lean API error %+v, SDK %+v", body, ae, wae)
	}
}

// eventCases are streams the recordings do not cover.
var eventCases = []string{
	messageStart(12, 3, 4) + textBlock(0, "Hé \"q\" \u00e9") + messageEnd("end_turn", 9),
	blockStart(0, `{"type":"thinking","thinking":"","signature":""}`) + blockDelta(0, `{"type":"thinking_delta","thinking":"hmm"}`) +
		blockDelta(0, `{"type":"signature_delta","signature":"c2ln"}`) + blockStop(0) +
		blockStart(1, `{"type":"redacted_thinking","data":"ZW5j"}`) + blockStop(1),
	blockStart(0, `{"type":"tool_use","id":"toolu_1","name":"ls","input":{}}`) + blockDelta(0, `{"type":"input_json_delta","partial_json":"{\"p\": \".\""}`) +
		blockDelta(0, `{"type":"input_json_delta","partial_json":"}"}`) + blockStop(0) + messageEnd("tool_use", 3),
	blockStart(0, `{"type":"tool_use","id":"t","name":"rd","input":{"z":1,"a":[true,null,"x"],"n":1.5e2}}`) + blockStop(0),
	blockStart(0, `{"type":"server_tool_use","id":"s","name":"web_search","input":{"q":"go"}}`),
	sse("message_delta", `{"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"output_tokens":5,"input_tokens":null,"cache_read_input_tokens":"7"}}`),
	sse("message_delta", `{"type":"message_delta","delta":{"stop_reason":"something_new"},"usage":{"input_tokens":1,"output_tokens":2,"cache_read_input_tokens":3,"cache_creation_input_tokens":4}}`),
	sse("ping", `{"type": "ping"}`) + "data: {\"type\":\"message_stop\"}\n\n" + sse("message_stop", "") + sse("message_stop", `{"type":"message_stop"}`),
	textBlock(0, "Hi") + sse("error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_9"}`) + textBlock(1, "never"),
	sse("error", `not json`),
	sse("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"cut"`),
	sse("content_block_delta", `{"type":"content_block_delta","type":"message_stop"}`),
	sse("unknown_event", `{"type":"unknown_event","whatever":[1,2,3]}`),
	sse("message_start", `"0"`), sse("message_start", `null`), sse("message_start", `5`), sse("message_start", `[]`),
	"",
}

func TestEventStreamReadsAsTheSDK(t *testing.T) {
	for _, body := range eventCases {
		sameReading(t, []byte(body))
	}
}

func TestEventStreamReadsTheRecordingsAsTheSDK(t *testing.T) {
	for _, f := range llmtest.LoadFixtures(t, "anthropic-messages") {
		t.Run(f.Name, func(t *testing.T) { sameReading(t, f.Body) })
	}
}

// FuzzEventStream compares the decoders on events of any field values.
func FuzzEventStream(f *testing.F) {
	f.Add("content_block_delta", "text_delta", "Hi", "", "", int64(3), int64(-1), []byte(nil))
	f.Add("content_block_start", "tool_use", "", "toolu_1", `{"a":1}`, int64(0), int64(9), []byte(sse("message_stop", `{"type":"message_stop"}`)))
	f.Fuzz(func(t *testing.T, typ, subtype, text, id, partial string, output, input int64, tail []byte) {
		usage := map[string]any{"output_tokens": output}
		if input >= 0 {
			usage["input_tokens"] = input
		}
		ev := map[string]any{
			"type": typ, "index": 0,
			"content_block": map[string]any{"type": subtype, "text": text, "thinking": text, "id": id, "name": text, "input": map[string]any{id: partial}},
			"delta":         map[string]any{"type": subtype, "text": text, "partial_json": partial, "signature": id, "stop_reason": text},
			"usage":         usage,
			"message":       map[string]any{"usage": usage},
		}
		raw, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		sameReading(t, append([]byte(sse(typ, string(raw))), tail...))
	})
}
