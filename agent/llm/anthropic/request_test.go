package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
)

var update = flag.Bool("update", false, "rewrite the golden request bodies")

const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

func image() agent.Content {
	return agent.Content{Type: agent.ContentImage, MimeType: "image/png", Data: png}
}

// richContext has every kind of block and the transcript shapes a replay
// must repair: an aborted turn and a call that never got a result.
func richContext(model agent.Model) agent.LLMContext {
	assistant := func(stop agent.StopReason, blocks ...agent.Content) agent.Message {
		return agent.Message{Role: agent.RoleAssistant, Provider: model.Provider, API: model.API, Model: model.ID,
			Content: blocks, StopReason: stop, Timestamp: t0}
	}
	result := func(id, name string, isError bool, blocks ...agent.Content) agent.Message {
		return agent.Message{Role: agent.RoleToolResult, ToolCallID: id, ToolName: name, Content: blocks, IsError: isError, Timestamp: t0}
	}
	return agent.LLMContext{
		SystemPrompt: "You are steer, a terminal agent.",
		Tools: []agent.ToolSpec{
			{Name: "read", Description: "Read a file", Parameters: json.RawMessage(
				`{"type":"object","properties":{"path":{"type":"string","description":"file to read"}},"required":["path"]}`)},
			{Name: "ls", Description: "List a directory"},
		},
		Messages: []agent.Message{
			{Role: agent.RoleUser, Timestamp: t0, Content: []agent.Content{agent.Text("What is in a.txt? Here is a picture."), image()}},
			assistant(agent.StopReasonToolUse,
				agent.Content{Type: agent.ContentThinking, Thinking: "Let me read it.", Signature: "sig-abc"},
				agent.Text("I'll read the file."),
				agent.ToolCall("toolu_01", "read", map[string]any{"path": "a.txt"}),
				agent.ToolCall("functions.ls:1", "ls", map[string]any{})),
			result("toolu_01", "read", false, agent.Text("hello")),
			result("functions.ls:1", "ls", true, agent.Text("permission denied"), image()),
			assistant(agent.StopReasonAborted, agent.Text("partial"), agent.ToolCall("toolu_02", "read", map[string]any{"path": "b"})),
			result("toolu_02", "read", true, agent.Text("aborted")),
			agent.UserMessage("Now read c.", t0),
			assistant(agent.StopReasonToolUse, agent.ToolCall("toolu_03", "read", map[string]any{"path": "c"})),
			agent.UserMessage("Never mind.", t0),
			assistant(agent.StopReasonStop,
				agent.Content{Type: agent.ContentThinking, Redacted: true, Signature: "opaque-payload"},
				agent.Text("Done.")),
			agent.UserMessage("Thanks!", t0),
		},
	}
}

// captureServer records request bodies and answers with a short stream.
func captureServer(t *testing.T) (*httptest.Server, *[]byte) {
	var got []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, _ = io.ReadAll(r.Body)
		writeSSE(w, []byte(messageStart(1, 0, 0)+textBlock(0, "ok")+messageEnd("end_turn", 1)), false)
	}))
	t.Cleanup(srv.Close)
	return srv, &got
}

// checkGolden compares a JSON body with testdata/name, rewriting it under
// -update.
func checkGolden(t *testing.T, name string, body []byte) {
	t.Helper()
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, body, "", "  "); err != nil {
		t.Fatalf("body is not JSON: %v\n%s", err, body)
	}
	pretty.WriteByte('\n')
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, pretty.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(pretty.Bytes(), want) {
		t.Errorf("request body differs from %s (run with -update to accept):\n%s", path, pretty.Bytes())
	}
}

// TestRequestGolden checks the wire form of a request with a system prompt,
// tools, images, tool calls and results, thinking, and repaired turns.
func TestRequestGolden(t *testing.T) {
	srv, got := captureServer(t)
	p := newProvider(t, Config{BaseURL: srv.URL})
	model := testModel
	model.Reasoning = true
	model.Input = []string{"text", "image"}
	_, msg := drain(t, p.Stream(context.Background(), model, richContext(model),
		agent.StreamOptions{Thinking: agent.ThinkingHigh, MaxTokens: 4096, SessionID: "session-1"}))
	if msg.StopReason != agent.StopReasonStop {
		t.Fatalf("stop %s error %+v", msg.StopReason, msg.Error)
	}
	checkGolden(t, "request.golden.json", *got)
}

// TestRequestOptions checks max_tokens, thinking budgets and images.
func TestRequestOptions(t *testing.T) {
	reasoning := testModel
	reasoning.Reasoning = true
	capped := reasoning
	capped.MaxOutput = 8000
	adaptive := reasoning
	adaptive.ID = "claude-opus-4-6"
	textOnly := testModel
	textOnly.Input = []string{"text"}
	user := agent.LLMContext{Messages: []agent.Message{{Role: agent.RoleUser, Content: []agent.Content{agent.Text("look"), image()}}}}
	tests := []struct {
		name  string
		model agent.Model
		llm   agent.LLMContext
		opts  agent.StreamOptions
		want  map[string]any // top-level fields; nil value means absent
	}{
		{name: "default max tokens", model: testModel, want: map[string]any{"max_tokens": float64(DefaultMaxTokens), "thinking": nil}},
		{name: "model max output", model: capped, want: map[string]any{"max_tokens": 8000.0}},
		{name: "requested max tokens", model: capped, opts: agent.StreamOptions{MaxTokens: 1000}, want: map[string]any{"max_tokens": 1000.0}},
		{name: "thinking raises max tokens", model: reasoning, opts: agent.StreamOptions{Thinking: agent.ThinkingMedium, MaxTokens: 2000},
			want: map[string]any{"max_tokens": 10192.0, "thinking": map[string]any{"type": "enabled", "budget_tokens": 8192}}},
		{name: "budget shrinks under the model's maximum", model: capped, opts: agent.StreamOptions{Thinking: agent.ThinkingHigh},
			want: map[string]any{"max_tokens": 8000.0, "thinking": map[string]any{"type": "enabled", "budget_tokens": 6976}}},
		{name: "no room to think", model: capped, opts: agent.StreamOptions{Thinking: agent.ThinkingLow, MaxTokens: 8000},
			want: map[string]any{"max_tokens": 8000.0, "thinking": map[string]any{"type": "enabled", "budget_tokens": 2048}}},
		{name: "thinking off", model: reasoning, opts: agent.StreamOptions{Thinking: agent.ThinkingOff}, want: map[string]any{"thinking": nil}},
		{name: "not a reasoning model", model: testModel, opts: agent.StreamOptions{Thinking: agent.ThinkingHigh},
			want: map[string]any{"thinking": nil}},
		{name: "adaptive model", model: adaptive, opts: agent.StreamOptions{Thinking: agent.ThinkingXHigh},
			want: map[string]any{"thinking": map[string]any{"type": "adaptive"}, "output_config": map[string]any{"effort": "max"},
				"max_tokens": float64(DefaultMaxTokens)}},
		{name: "images to a text-only model", model: textOnly, llm: user,
			want: map[string]any{"messages": []any{map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "text", "text": "look"},
				map[string]any{"type": "text", "text": imageOmitted, "cache_control": map[string]any{"type": "ephemeral"}}}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			params, err := buildParams(tt.model, tt.llm, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := json.Marshal(params)
			var body map[string]any
			if err := json.Unmarshal(raw, &body); err != nil {
				t.Fatal(err)
			}
			for k, want := range tt.want {
				got, ok := body[k]
				if want == nil {
					if ok {
						t.Errorf("%s = %v, want it absent", k, got)
					}
					continue
				}
				if !jsonEqual(t, got, want) {
					t.Errorf("%s = %v, want %v", k, got, want)
				}
			}
		})
	}
}

func TestToolUseID(t *testing.T) {
	for in, want := range map[string]string{
		"toolu_01Js4AMfx5qpTLhwTusnvT68": "toolu_01Js4AMfx5qpTLhwTusnvT68",
		"functions.add:0":                "functions_add_0",
		strings.Repeat("a", 70):          strings.Repeat("a", 64),
	} {
		if got := toolUseID(in); got != want {
			t.Errorf("toolUseID(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRequestRejectsBadToolSchema(t *testing.T) {
	llm := agent.LLMContext{Tools: []agent.ToolSpec{{Name: "bad", Parameters: json.RawMessage(`[1,2]`)}}}
	srv, _ := captureServer(t)
	p := newProvider(t, Config{BaseURL: srv.URL})
	_, msg := drain(t, p.Stream(context.Background(), testModel, llm, agent.StreamOptions{}))
	if msg.Error == nil || msg.Error.Kind != agent.ErrorMalformed {
		t.Fatalf("error = %+v", msg.Error)
	}
}

func jsonEqual(t *testing.T, a, b any) bool {
	x, _ := json.Marshal(jsonValue(t, a))
	y, _ := json.Marshal(jsonValue(t, b))
	return bytes.Equal(x, y)
}
