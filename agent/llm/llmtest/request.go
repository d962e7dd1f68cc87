package llmtest

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/steer-tui/steer/agent"
)

var update = flag.Bool("update", false, "rewrite the golden request bodies")

// png is a 1×1 image.
const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

// Image is an image block holding a 1×1 PNG.
func Image() agent.Content {
	return agent.Content{Type: agent.ContentImage, MimeType: "image/png", Data: png}
}

// RichContext has every kind of block and the transcript shapes a replay
// must repair: an aborted turn and a call that never got a result. Its
// assistant messages claim to come from model.
func RichContext(model agent.Model) agent.LLMContext {
	assistant := func(stop agent.StopReason, blocks ...agent.Content) agent.Message {
		return agent.Message{Role: agent.RoleAssistant, Provider: model.Provider, API: model.API, Model: model.ID,
			Content: blocks, StopReason: stop, Timestamp: Epoch}
	}
	result := func(id, name string, isError bool, blocks ...agent.Content) agent.Message {
		return agent.Message{Role: agent.RoleToolResult, ToolCallID: id, ToolName: name, Content: blocks, IsError: isError, Timestamp: Epoch}
	}
	return agent.LLMContext{
		SystemPrompt: "You are steer, a terminal agent.",
		Tools: []agent.ToolSpec{
			{Name: "read", Description: "Read a file", Parameters: json.RawMessage(
				`{"type":"object","properties":{"path":{"type":"string","description":"file to read"}},"required":["path"]}`)},
			{Name: "ls", Description: "List a directory"},
		},
		Messages: []agent.Message{
			{Role: agent.RoleUser, Timestamp: Epoch, Content: []agent.Content{agent.Text("What is in a.txt? Here is a picture."), Image()}},
			assistant(agent.StopReasonToolUse,
				agent.Content{Type: agent.ContentThinking, Thinking: "Let me read it.", Signature: "sig-abc"},
				agent.Text("I'll read the file."),
				agent.ToolCall("toolu_01", "read", map[string]any{"path": "a.txt"}),
				agent.ToolCall("functions.ls:1", "ls", map[string]any{})),
			result("toolu_01", "read", false, agent.Text("hello")),
			result("functions.ls:1", "ls", true, agent.Text("permission denied"), Image()),
			assistant(agent.StopReasonAborted, agent.Text("partial"), agent.ToolCall("toolu_02", "read", map[string]any{"path": "b"})),
			result("toolu_02", "read", true, agent.Text("aborted")),
			agent.UserMessage("Now read c.", Epoch),
			assistant(agent.StopReasonToolUse, agent.ToolCall("toolu_03", "read", map[string]any{"path": "c"})),
			agent.UserMessage("Never mind.", Epoch),
			assistant(agent.StopReasonStop,
				agent.Content{Type: agent.ContentThinking, Redacted: true, Signature: "opaque-payload"},
				agent.Text("Done.")),
			agent.UserMessage("Thanks!", Epoch),
		},
	}
}

// CheckGolden compares a JSON body, indented, with testdata/name in the
// calling package, rewriting the file when the test runs with -update.
func CheckGolden(t testing.TB, name string, body []byte) {
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

// CheckRequestGolden streams RichContext to the provider h opens, with a
// reasoning, image-taking h.Model, high thinking, a token cap and a session,
// and compares the request body with testdata/request.golden.json.
func CheckRequestGolden(t *testing.T, h ContractHarness) {
	t.Helper()
	srv, got := CaptureServer(t, h.Wire.Reply("ok"))
	model := h.Model
	model.Reasoning = true
	model.Input = []string{"text", "image"}
	_, msg := Drain(t, h.stream(t, Conn{URL: srv.URL})(context.Background(), model, RichContext(model),
		agent.StreamOptions{Thinking: agent.ThinkingHigh, MaxTokens: 4096, SessionID: "session-1"}))
	if msg.StopReason != agent.StopReasonStop {
		t.Fatalf("stop %s error %+v", msg.StopReason, msg.Error)
	}
	CheckGolden(t, "request.golden.json", got())
}

// CheckFields compares the top-level fields of params, as JSON, with want;
// a nil in want means the field must be absent.
func CheckFields(t testing.TB, params any, want map[string]any) {
	t.Helper()
	raw, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	for k, w := range want {
		got, ok := body[k]
		if w == nil {
			if ok {
				t.Errorf("%s = %v, want it absent", k, got)
			}
			continue
		}
		if !JSONEqual(t, got, w) {
			t.Errorf("%s = %v, want %v", k, got, w)
		}
	}
}
