package scripted

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
)

func TestDefaultAnswerShape(t *testing.T) {
	events, msg := ask(t, newTestProvider(nil), llmOf(user("hello")), agent.StreamOptions{})
	if msg.StopReason != agent.StopReasonStop {
		t.Fatalf("stopReason = %q, want stop", msg.StopReason)
	}
	text := msg.TextContent()
	for _, want := range []string{"\n## ", "\n- ", "\n```"} {
		if !strings.Contains(text, want) {
			t.Errorf("answer lacks %q:\n%s", want, text)
		}
	}
	if !strings.HasPrefix(text, "You said: hello\n") {
		t.Errorf("answer starts %q, want You said: hello", text[:min(40, len(text))])
	}
	if n := count(events, agent.EventTextDelta); n < 20 {
		t.Errorf("%d text deltas; want the answer streamed in small chunks", n)
	}
	if events[0].Type != agent.EventStart || events[len(events)-1].Type != agent.EventDone {
		t.Errorf("events run %v … %v, want start … done", events[0].Type, events[len(events)-1].Type)
	}
	if msg.Provider != ProviderName || msg.Model != "echo" || msg.API != API || !msg.Timestamp.Equal(t0) {
		t.Errorf("message header = %q %q %q %v", msg.Provider, msg.Model, msg.API, msg.Timestamp)
	}
	if msg.Usage.Input <= 0 || msg.Usage.Output < len(text)/4 || msg.Usage.Cost.Total != 0 {
		t.Errorf("usage = %+v, want estimates and no cost", msg.Usage)
	}
}

func TestCommandsCallTools(t *testing.T) {
	tests := []struct {
		prompt string
		tool   string
		args   map[string]any
		intro  string
	}{
		{"list files", "ls", map[string]any{}, "Listing"},
		{"  LIST FILES ", "ls", map[string]any{}, "Listing"},
		{"read go.mod", "read", map[string]any{"path": "go.mod"}, "Reading `go.mod`."},
		{"Read docs/My File.md", "read", map[string]any{"path": "docs/My File.md"}, "Reading"},
		{"run sleep 3", "bash", map[string]any{"command": "sleep 3"}, "Running `sleep 3`."},
		{`RUN echo "a {b}" | wc -c`, "bash", map[string]any{"command": `echo "a {b}" | wc -c`}, "Running"},
	}
	for _, tt := range tests {
		t.Run(tt.prompt, func(t *testing.T) {
			events, msg := ask(t, newTestProvider(nil), llmOf(user(tt.prompt)), agent.StreamOptions{})
			if msg.StopReason != agent.StopReasonToolUse {
				t.Fatalf("stopReason = %q, want toolUse", msg.StopReason)
			}
			calls := msg.ToolCalls()
			if len(calls) != 1 {
				t.Fatalf("%d tool calls, want 1", len(calls))
			}
			c := calls[0]
			if c.Name != tt.tool || !reflect.DeepEqual(c.Arguments, tt.args) {
				t.Errorf("call = %s %v, want %s %v", c.Name, c.Arguments, tt.tool, tt.args)
			}
			if !strings.HasPrefix(c.ID, "call_") {
				t.Errorf("call id %q, want call_…", c.ID)
			}
			if !strings.Contains(msg.TextContent(), tt.intro) {
				t.Errorf("text %q lacks %q", msg.TextContent(), tt.intro)
			}
			if n := count(events, agent.EventToolCallDelta); n < 1 || (len(tt.args) > 0 && n < 2) {
				t.Errorf("%d argument deltas, want the JSON in pieces", n)
			}
		})
	}
}

func TestCommandWithoutItsTool(t *testing.T) {
	tests := []struct {
		prompt string
		tools  []agent.ToolSpec
		tool   string
	}{
		{"run ls", testTools[:2], "bash"},
		{"search TODO", testTools, "grep"},
		{"list files", nil, "ls"},
	}
	for _, tt := range tests {
		t.Run(tt.prompt, func(t *testing.T) {
			llm := llmOf(user(tt.prompt))
			llm.Tools = tt.tools
			_, msg := ask(t, newTestProvider(nil), llm, agent.StreamOptions{})
			if msg.StopReason != agent.StopReasonStop || len(msg.ToolCalls()) != 0 {
				t.Fatalf("stopReason %q with %d calls, want a plain answer", msg.StopReason, len(msg.ToolCalls()))
			}
			if text := msg.TextContent(); !strings.Contains(text, "`"+tt.tool+"`") || !strings.Contains(text, "not available") {
				t.Errorf("answer %q does not say %s is unavailable", text, tt.tool)
			}
		})
	}
}

// TestGreetingListsOnlyToolsThatExist: the greeting offers a command only
// when the session has the tool it needs.
func TestGreetingListsOnlyToolsThatExist(t *testing.T) {
	cases := []struct {
		name  string
		tools []agent.ToolSpec
		want  []string
		not   []string
	}{
		{"read, ls, bash", testTools, []string{"`list files`", "`read <path>`", "`run <command>`"}, []string{"`search"}},
		{"with grep", append(slices.Clone(testTools), agent.ToolSpec{Name: "grep"}), []string{"`search <pattern>`"}, nil},
		{"no tools", nil, nil, []string{"What I understand", "`run <command>`"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			llm := llmOf(user("hello"))
			llm.Tools = tc.tools
			_, msg := ask(t, newTestProvider(nil), llm, agent.StreamOptions{})
			text := msg.TextContent()
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("greeting lacks %s:\n%s", w, text)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(text, n) {
					t.Errorf("greeting offers %s:\n%s", n, text)
				}
			}
		})
	}
}

func TestSearchCallsGrep(t *testing.T) {
	llm := llmOf(user("search func main"))
	llm.Tools = append(slices.Clone(testTools), agent.ToolSpec{Name: "grep"})
	_, msg := ask(t, newTestProvider(nil), llm, agent.StreamOptions{})
	want := map[string]any{"pattern": "func main"}
	if calls := msg.ToolCalls(); len(calls) != 1 || calls[0].Name != "grep" || !reflect.DeepEqual(calls[0].Arguments, want) {
		t.Errorf("calls = %+v, want grep %v", calls, want)
	}
}

func TestAnswerAfterToolResult(t *testing.T) {
	bash := agent.ToolCall("call_1", "bash", map[string]any{"command": "make test"})
	read := agent.ToolCall("call_2", "read", map[string]any{"path": "main.go"})
	ls := agent.ToolCall("call_3", "ls", map[string]any{})
	grep := agent.ToolCall("call_4", "grep", map[string]any{"pattern": "main"})
	long := strings.Repeat("line\n", 30) + "last line\n"
	tests := []struct {
		name   string
		call   agent.Content
		output string
		isErr  bool
		want   []string
		absent []string
	}{
		{"bash", bash, long, false,
			[]string{"The command `make test` finished (exit code 0).", "Output:", "```\nline", "last line\n```", "last 20 of 31 lines"}, nil},
		{"bash exit code in text", bash, "FAIL\nexit code: 2\n", false,
			[]string{"(exit code 2)", "FAIL"}, nil},
		{"bash silent", bash, "", false, []string{"It printed nothing."}, []string{"```"}},
		{"read", read, "package main\n\nfunc main() {}\n", false,
			[]string{"`main.go` has 3 lines of Go:", "```go\npackage main\n\nfunc main() {}\n```"}, nil},
		{"ls", ls, "go.mod\nmain.go\nagent/\n", false,
			[]string{"3 entries", "- `go.mod`\n- `main.go`\n- `agent/`"}, nil},
		{"grep", grep, "main.go:1:package main\n", false,
			[]string{"Found 1 line matching `main`:", "```\nmain.go:1:package main\n```"}, nil},
		{"grep without matches", grep, "No matches found", false,
			[]string{"Nothing in the workspace matches `main`."}, []string{"Found", "```"}},
		{"error", bash, "command not found: mak\nexit status 127", true,
			[]string{"The `bash` tool failed running `make test` (exit code 127):", "> command not found: mak"}, nil},
		{"read error", read, "open main.go: no such file or directory", true,
			[]string{"The `read` tool failed:", "> open main.go: no such file or directory"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			llm := llmOf(user("do it"), assistant("", tt.call), toolResult(tt.call, tt.output, tt.isErr))
			_, msg := ask(t, newTestProvider(nil), llm, agent.StreamOptions{})
			text := msg.TextContent()
			if msg.StopReason != agent.StopReasonStop || len(msg.ToolCalls()) != 0 {
				t.Fatalf("stopReason %q, want stop without calls", msg.StopReason)
			}
			if strings.HasPrefix(text, "Steering") || strings.HasPrefix(text, "You said") {
				t.Errorf("answer %q: the tool result is no prompt nor steering", text)
			}
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("answer lacks %q:\n%s", w, text)
				}
			}
			for _, a := range tt.absent {
				if strings.Contains(text, a) {
					t.Errorf("answer has %q:\n%s", a, text)
				}
			}
		})
	}
}

func TestExitCodeFromDetails(t *testing.T) {
	call := agent.ToolCall("c", "bash", map[string]any{"command": "false"})
	res := toolResult(call, "", false)
	res.Details = struct {
		ExitCode int `json:"exitCode"`
	}{3}
	_, msg := ask(t, newTestProvider(nil), llmOf(user("x"), assistant("", call), res), agent.StreamOptions{})
	if !strings.Contains(msg.TextContent(), "(exit code 3)") {
		t.Errorf("answer %q lacks the exit code from details", msg.TextContent())
	}
}

func TestSteeringClassification(t *testing.T) {
	call := agent.ToolCall("call_1", "bash", map[string]any{"command": "sleep 3"})
	tests := []struct {
		name     string
		msgs     []agent.Message
		prefix   string
		wantTool string
	}{
		{"after a tool result, all are steering",
			[]agent.Message{user("run sleep 3"), assistant("", call), toolResult(call, "", false), user("a"), user("b")},
			"Steering received: a\nSteering received: b\n\nThe command `sleep 3` finished", ""},
		{"prompt and steering typed while queued",
			[]agent.Message{user("hello"), user("also this")},
			"Steering received: also this\n\nYou said: hello\n", ""},
		{"queued steering before a command",
			[]agent.Message{user("list files"), user("quickly")},
			"Steering received: quickly\n\nListing", "ls"},
		{"follow-up after an answer is a prompt",
			[]agent.Message{user("hello"), assistant("You said: hello"), user("again")},
			"You said: again\n", ""},
		{"follow-up after tool turn's answer",
			[]agent.Message{user("run sleep 3"), assistant("", call), toolResult(call, "", false), assistant("done"), user("b")},
			"You said: b\n", ""},
		{"a prompt after a denied call (the run ended) is a prompt",
			[]agent.Message{user("run sleep 3"), assistant("", call), denied(call), user("list files")},
			"Listing", "ls"},
		{"a denial in map form, as reloaded from the database",
			[]agent.Message{user("run sleep 3"), assistant("", call), deniedAsMap(call), user("again")},
			"You said: again\n", ""},
		{"after a call refused by policy the run goes on: steering",
			[]agent.Message{user("run sleep 3"), assistant("", call), refusedByPolicy(call), user("a")},
			"Steering received: a\n", ""},
		{"no steering after a bare tool result",
			[]agent.Message{user("run sleep 3"), assistant("", call), toolResult(call, "", false)},
			"The command `sleep 3` finished", ""},
		{"nothing new", []agent.Message{user("hi"), assistant("hello")}, "There is nothing new", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, msg := ask(t, newTestProvider(nil), llmOf(tt.msgs...), agent.StreamOptions{})
			if text := msg.TextContent(); !strings.HasPrefix(text, tt.prefix) {
				t.Errorf("answer starts %q, want %q", text[:min(len(text), len(tt.prefix)+20)], tt.prefix)
			}
			var tool string
			if calls := msg.ToolCalls(); len(calls) > 0 {
				tool = calls[0].Name
			}
			if tool != tt.wantTool {
				t.Errorf("tool call %q, want %q", tool, tt.wantTool)
			}
		})
	}
}

// denied is the result of call when the person denied it, with the
// details the tools' gate gives it.
func denied(call agent.Content) agent.Message {
	m := toolResult(call, "denied by the user", true)
	m.Details = struct {
		Refused string `json:"refused"`
	}{"user"}
	return m
}

func deniedAsMap(call agent.Content) agent.Message {
	m := toolResult(call, "denied by the user", true)
	m.Details = map[string]any{"refused": "user"}
	return m
}

func refusedByPolicy(call agent.Content) agent.Message {
	m := toolResult(call, "refused: tool approval is \"never\"", true)
	m.Details = map[string]any{"refused": "policy"}
	return m
}

func TestThinkingOnlyForReasoningRequests(t *testing.T) {
	tests := []struct {
		name     string
		model    agent.Model
		level    agent.ThinkingLevel
		thinking bool
	}{
		{"echo thinks when asked", Models()[0], agent.ThinkingMedium, true},
		{"echo with thinking off", Models()[0], agent.ThinkingOff, false},
		{"tiny does not reason", Models()[1], agent.ThinkingHigh, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stream := newTestProvider(nil).Stream(t.Context(), tt.model, llmOf(user("hi")), agent.StreamOptions{Thinking: tt.level})
			_, msg := drain(t, stream)
			got := len(msg.Content) > 0 && msg.Content[0].Type == agent.ContentThinking
			if got != tt.thinking {
				t.Errorf("thinking block = %v, want %v", got, tt.thinking)
			}
			if got && msg.Content[0].Signature == "" {
				t.Error("thinking block has no signature")
			}
		})
	}
}
