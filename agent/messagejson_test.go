package agent_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// ts is agenttest.Epoch on the wire.
var ts = fmt.Sprint(agenttest.Epoch.UnixMilli())

// golden replaces TS with the epoch's milliseconds.
func golden(s string) string { return strings.ReplaceAll(s, "TS", ts) }

// encodeMessage marshals as steer's writers do: without HTML escaping.
func encodeMessage(m agent.Message) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func decodeMessage(data []byte) (agent.Message, error) {
	var m agent.Message
	err := json.Unmarshal(data, &m)
	return m, err
}

func TestMessageMarshalJSON(t *testing.T) {
	at := agenttest.Epoch
	image := agent.Content{Type: agent.ContentImage, Data: "aGk=", MimeType: "image/png"}
	cases := []struct {
		name string
		msg  agent.Message
		want string
	}{
		{
			name: "user with one text block is a string",
			msg:  agent.UserMessage("hi <there> & \u2028", at),
			want: `{"role":"user","content":"hi <there> & \u2028","timestamp":TS}`,
		},
		{
			name: "user with an image is an array",
			msg:  agent.Message{Role: agent.RoleUser, Content: []agent.Content{agent.Text("look"), image}, Timestamp: at},
			want: `{"role":"user","content":[{"type":"text","text":"look"},{"type":"image","data":"aGk=","mimeType":"image/png"}],"timestamp":TS}`,
		},
		{
			name: "attached blocks name their file, even alone",
			msg: agent.Message{Role: agent.RoleUser, Timestamp: at, Content: []agent.Content{
				{Type: agent.ContentText, Text: "<file>", Attached: agent.Attachment{Path: "README.md", Size: 2100}},
			}},
			want: `{"role":"user","content":[{"type":"text","text":"<file>","attached":{"path":"README.md","size":2100}}],"timestamp":TS}`,
		},
		{
			name: "an attached image and directory",
			msg: agent.Message{Role: agent.RoleUser, Timestamp: at, Content: []agent.Content{
				{Type: agent.ContentImage, Data: "aGk=", MimeType: "image/png", Attached: agent.Attachment{Path: "/tmp/a.png", Size: 2}},
				{Type: agent.ContentText, Text: "a/", Attached: agent.Attachment{Path: "dir/", Size: 3, Dir: true}},
			}},
			want: `{"role":"user","content":[{"type":"image","data":"aGk=","mimeType":"image/png","attached":{"path":"/tmp/a.png","size":2}},{"type":"text","text":"a/","attached":{"path":"dir/","size":3,"dir":true}}],"timestamp":TS}`,
		},
		{
			name: "user injected from the queue keeps its item id",
			msg:  agent.Message{Role: agent.RoleUser, Content: []agent.Content{agent.Text("steer")}, Timestamp: at, QueueItemID: "q_1"},
			want: `{"role":"user","content":"steer","timestamp":TS,"queueItemId":"q_1"}`,
		},
		{
			name: "assistant with every block kind",
			msg: agent.Message{
				Role: agent.RoleAssistant,
				Content: []agent.Content{
					{Type: agent.ContentThinking, Thinking: "hmm", Signature: "sig"},
					{Type: agent.ContentThinking, Signature: "opaque", Redacted: true},
					agent.Text("ok"),
					agent.ToolCall("c1", "read", map[string]any{"path": "a.go", "limit": float64(3)}),
				},
				API: "anthropic-messages", Provider: "anthropic", Model: "claude",
				Usage: agent.Usage{Input: 10, Output: 5, CacheRead: 2, CacheWrite: 1,
					Cost: agent.Cost{Input: 0.5, Output: 0.25, CacheRead: 0.125, CacheWrite: 0.0625, Total: 0.9375}},
				StopReason: agent.StopReasonToolUse, Timestamp: at,
			},
			want: `{"role":"assistant","content":[` +
				`{"type":"thinking","thinking":"hmm","thinkingSignature":"sig"},` +
				`{"type":"thinking","thinking":"","thinkingSignature":"opaque","redacted":true},` +
				`{"type":"text","text":"ok"},` +
				`{"type":"toolCall","id":"c1","name":"read","arguments":{"limit":3,"path":"a.go"}}],` +
				`"api":"anthropic-messages","provider":"anthropic","model":"claude",` +
				`"usage":{"input":10,"output":5,"cacheRead":2,"cacheWrite":1,"totalTokens":18,` +
				`"cost":{"input":0.5,"output":0.25,"cacheRead":0.125,"cacheWrite":0.0625,"total":0.9375}},` +
				`"stopReason":"toolUse","timestamp":TS}`,
		},
		{
			name: "failed assistant carries the provider error",
			msg: agent.Message{
				Role: agent.RoleAssistant, Content: []agent.Content{agent.Text("par")},
				API: "openai", Provider: "openai", Model: "gpt", StopReason: agent.StopReasonError,
				ErrorMessage: "429 rate_limit: slow down",
				Error: &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 429, Type: "rate_limit",
					Code: "rl", Message: "slow down", Body: `{"error":1}`},
				Timestamp: at,
			},
			want: `{"role":"assistant","content":[{"type":"text","text":"par"}],"api":"openai","provider":"openai","model":"gpt",` +
				`"usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},` +
				`"stopReason":"error","errorMessage":"429 rate_limit: slow down",` +
				`"providerError":{"kind":"http","status":429,"type":"rate_limit","code":"rl","message":"slow down","body":"{\"error\":1}"},` +
				`"timestamp":TS}`,
		},
		{
			name: "aborted marker has an empty content array",
			msg: agent.Message{Role: agent.RoleAssistant, Content: []agent.Content{}, API: "test", Provider: "test",
				Model: "m", StopReason: agent.StopReasonAborted, ErrorMessage: agent.AbortedMessage, Timestamp: at},
			want: `{"role":"assistant","content":[],"api":"test","provider":"test","model":"m",` +
				`"usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},` +
				`"stopReason":"aborted","errorMessage":"aborted by the user","timestamp":TS}`,
		},
		{
			name: "tool result with details",
			msg: agent.Message{Role: agent.RoleToolResult, ToolCallID: "c1", ToolName: "bash",
				Content: []agent.Content{agent.Text("exit 1")}, IsError: true,
				Details: map[string]any{"exitCode": float64(1), "lines": []any{"a", "b"}}, Timestamp: at},
			want: `{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"exit 1"}],` +
				`"isError":true,"details":{"exitCode":1,"lines":["a","b"]},"timestamp":TS}`,
		},
		{
			name: "tool result without details",
			msg: agent.Message{Role: agent.RoleToolResult, ToolCallID: "c2", ToolName: "read",
				Content: []agent.Content{agent.Text("x"), image}, Timestamp: at},
			want: `{"role":"toolResult","toolCallId":"c2","toolName":"read","content":[{"type":"text","text":"x"},` +
				`{"type":"image","data":"aGk=","mimeType":"image/png"}],"isError":false,"timestamp":TS}`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := encodeMessage(tc.msg)
			if err != nil {
				t.Fatal(err)
			}
			if want := golden(tc.want); string(got) != want {
				t.Fatalf("MarshalJSON\n got %s\nwant %s", got, want)
			}
			back, err := decodeMessage(got)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, tc.msg) {
				t.Fatalf("round trip\n got %#v\nwant %#v", back, tc.msg)
			}
		})
	}
}

func TestMessageUnmarshalJSONPiShapes(t *testing.T) {
	at := agenttest.Epoch
	cases := []struct {
		name string
		json string
		want agent.Message
	}{
		{
			name: "user string content",
			json: `{"role":"user","content":"hello","timestamp":TS}`,
			want: agent.UserMessage("hello", at),
		},
		{
			name: "image in the source form",
			json: `{"role":"user","content":[{"type":"text","text":"see"},{"type":"image","source":{"type":"base64","mediaType":"image/jpeg","data":"eA=="}}],"timestamp":TS}`,
			want: agent.Message{Role: agent.RoleUser, Timestamp: at, Content: []agent.Content{
				agent.Text("see"), {Type: agent.ContentImage, Data: "eA==", MimeType: "image/jpeg"}}},
		},
		{
			name: "unknown fields are ignored",
			json: `{"role":"assistant","content":[{"type":"text","text":"hi","textSignature":"x"}],"stopReason":"stop","timestamp":TS,"usage":{"input":1,"totalTokens":99}}`,
			want: agent.Message{Role: agent.RoleAssistant, Content: []agent.Content{agent.Text("hi")},
				StopReason: agent.StopReasonStop, Usage: agent.Usage{Input: 1}, Timestamp: at},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decodeMessage([]byte(golden(tc.json)))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("\n got %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

func TestMessageUnmarshalJSONErrors(t *testing.T) {
	cases := []struct{ name, json, want string }{
		{"not an object", `[1]`, "cannot unmarshal"},
		{"missing role", `{"content":"x"}`, "missing role"},
		{"foreign role", `{"role":"bashExecution"}`, `unsupported role "bashExecution"`},
		{"unknown block", `{"role":"user","content":[{"type":"video"}]}`, `block 0: unsupported block type "video"`},
		{"image without data", `{"role":"user","content":[{"type":"image","mimeType":"image/png"}]}`, "image has no data"},
		{"url image", `{"role":"user","content":[{"type":"image","source":{"type":"url","url":"http://x"}}]}`, `source type "url"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decodeMessage([]byte(tc.json))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}
