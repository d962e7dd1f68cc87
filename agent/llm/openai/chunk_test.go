package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/steer-tui/steer/agent/llm/llmtest"
)

// The SDK's own decoding is the oracle: the lean decoder must read every
// stream as the SDK stream read it, field for field, and end it the same way.

func response(body []byte) *http.Response {
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body: io.NopCloser(bytes.NewReader(body))}
}

// sdkChunks reads body with the SDK stream and what the handler used to read
// of each chunk.
func sdkChunks(body []byte) ([]completionChunk, error) {
	s := ssestream.NewStream[sdk.ChatCompletionChunk](ssestream.NewDecoder(response(body)), nil)
	var out []completionChunk
	for s.Next() {
		out = append(out, fromSDK(s.Current()))
	}
	return out, s.Err()
}

func fromSDK(c sdk.ChatCompletionChunk) completionChunk {
	out := completionChunk{HasUsage: c.JSON.Usage.Valid()}
	if out.HasUsage {
		u := c.Usage
		out.Usage = usage{u.PromptTokens, u.CompletionTokens, u.PromptTokensDetails.CachedTokens, u.PromptTokensDetails.CacheWriteTokens}
	}
	for _, ch := range c.Choices {
		d := delta{Role: utf8Like(string(ch.Delta.Role)), Content: utf8Like(ch.Delta.Content), Refusal: utf8Like(ch.Delta.Refusal)}
		for _, name := range reasoningKeys {
			var s string
			if f := ch.Delta.JSON.ExtraFields[name]; strings.HasPrefix(f.Raw(), `"`) && json.Unmarshal([]byte(f.Raw()), &s) == nil && s != "" {
				d.Reasoning = utf8Like(s)
				break
			}
		}
		for _, tc := range ch.Delta.ToolCalls {
			t := toolCallDelta{HasIndex: tc.JSON.Index.Valid(), ID: utf8Like(tc.ID), Name: utf8Like(tc.Function.Name), Arguments: utf8Like(tc.Function.Arguments)}
			if t.HasIndex {
				t.Index = tc.Index
			}
			d.ToolCalls = append(d.ToolCalls, t)
		}
		out.Choices = append(out.Choices, choice{Index: ch.Index, Delta: d, FinishReason: utf8Like(ch.FinishReason)})
	}
	return out
}

// utf8Like is s as encoding/json, and so the lean decoder, reads it: each
// byte of invalid UTF-8 is U+FFFD, where the SDK passes the bytes through.
func utf8Like(s string) string { return string([]rune(s)) }

// leanChunks reads body with chunkStream, copying each chunk before the
// next one reuses it.
func leanChunks(body []byte) ([]completionChunk, error) {
	resp := response(body)
	s := newChunkStream(ssestream.NewStream[sdk.ChatCompletionChunk](ssestream.NewDecoder(resp), nil), resp)
	var out []completionChunk
	for s.Next() {
		c := *s.Current()
		if !c.HasUsage {
			c.Usage = usage{}
		}
		c.Choices = nil
		for _, ch := range s.Current().Choices {
			ch.Delta.ToolCalls = append([]toolCallDelta(nil), ch.Delta.ToolCalls...)
			c.Choices = append(c.Choices, ch)
		}
		out = append(out, c)
	}
	return out, s.Err()
}

// sameReading fails unless both decoders read body alike.
func sameReading(t *testing.T, body []byte) {
	t.Helper()
	want, wantErr := sdkChunks(body)
	got, err := leanChunks(body)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("body %q\nlean: %+v\nSDK:  %+v", body, got, want)
	}
	var se, wse *ssestream.StreamError
	switch {
	case (err == nil) != (wantErr == nil):
		t.Fatalf("body %q: lean error %v, SDK error %v", body, err, wantErr)
	case errors.As(wantErr, &wse) != errors.As(err, &se):
		t.Fatalf("body %q: lean error %#v, SDK error %#v", body, err, wantErr)
	case se != nil && (se.Message != wse.Message || !bytes.Equal(se.Event.Data, wse.Event.Data)):
		t.Fatalf("body %q: lean stream error %+v, SDK %+v", body, se, wse)
	}
}

// decoderCases are streams the recordings do not cover.
var decoderCases = []string{
	chunk(`{"content":"Hi"}`) + chunk(`{"content":"\u00e9\ud83d\ude00 \"q\""}`) + finish("stop") + done,
	chunk(`{"reasoning_content":"think","reasoning":"dup"}`) + chunk(`{"reasoning":"only"}`) + chunk(`{"reasoning_content":"","reasoning":"second"}`),
	chunk(`{"reasoning":7,"content":null,"refusal":"no"}`),
	chunk(`{"role":"assistant","content":""}`) + chunk(`{"role":"tool"}`) + chunk(`{"role":null}`),
	chunk(`{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"ls","arguments":"{\"p"}},{"index":1,"id":"b","function":{"name":"rd","arguments":""}}]}`) +
		chunk(`{"tool_calls":[{"function":{"arguments":"\":1}"}}]}`) + finish("tool_calls"),
	`data: {"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":3,"prompt_tokens_details":{"cached_tokens":4,"cache_write_tokens":2}}}` + "\n\n" + done,
	`data: {"choices":[{"index":1,"delta":{"content":"other"}},{"index":0,"delta":{"content":"mine"},"finish_reason":"length"}],"usage":null}` + "\n\n",
	`data: {"choices":[{"index":0,"delta":{"content":"a"}}],"choices":[{"index":0,"delta":{"content":"b"}}]}` + "\n\n",
	": OPENROUTER PROCESSING\n\n" + chunk(`{"content":"x"}`) + "data: {\"error\":{\"message\":\"boom\",\"code\":502}}\n\n" + chunk(`{"content":"never"}`),
	"data: {\"error\":\"plain text\"}\n\n",
	"data: {\"error\":{\"message\":\"cut\"\n\n",
	chunk(`{"content":"Hi"}`) + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"oops\"\n\n",
	"data: [DONE]\n\n" + chunk(`{"content":"after the end"}`),
	"event: custom\ndata: {\"choices\":[{\"delta\":{\"content\":\"typed\"}}]}\n\n",
	"data: {\"choices\":\n\n",
	"data: \"0\"\n\n", "data: null\n\n", "data: 5\n\n", "data: []\n\n", "data: true\n\n",
	"",
}

func TestChunkStreamReadsAsTheSDK(t *testing.T) {
	for _, body := range decoderCases {
		sameReading(t, []byte(body))
	}
}

func TestChunkStreamReadsTheRecordingsAsTheSDK(t *testing.T) {
	for _, f := range llmtest.LoadFixtures(t, "openai-chat") {
		t.Run(f.Name, func(t *testing.T) { sameReading(t, f.Body) })
	}
}

// FuzzChunkStream compares the decoders on chunks of any field values, and
// on any body that a corpus entry grows into.
func FuzzChunkStream(f *testing.F) {
	f.Add("Hi", "", "", "", "", "", "stop", int64(0), int64(7), []byte(done))
	f.Add("", "\u00e9\x00\\", "reason", "call_1", "ls", `{"p":"."}`, "tool_calls", int64(1), int64(0), []byte("data: {\"error\":{}}\n\n"))
	f.Fuzz(func(t *testing.T, content, refusal, reasoning, id, name, args, finishReason string, index, tokens int64, tail []byte) {
		tc := map[string]any{"id": id, "function": map[string]any{"name": name, "arguments": args}}
		if index >= 0 {
			tc["index"] = index
		}
		c := map[string]any{
			"id": "c", "object": "chat.completion.chunk",
			"choices": []any{map[string]any{"index": 0, "finish_reason": finishReason, "delta": map[string]any{
				"content": content, "refusal": refusal, "reasoning": reasoning, "tool_calls": []any{tc}}}},
			"usage": map[string]any{"prompt_tokens": tokens, "completion_tokens": index},
		}
		raw, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		sameReading(t, append([]byte("data: "+string(raw)+"\n\n"), tail...))
	})
}
