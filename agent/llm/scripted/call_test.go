package scripted

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
)

func TestParseCall(t *testing.T) {
	tests := []struct {
		prompt  string
		isCall  bool
		tool    string
		args    map[string]any
		intro   string
		problem string
	}{
		{prompt: `call write {"path": "a.txt", "content": "hi\n"}`, isCall: true, tool: "write",
			args: map[string]any{"path": "a.txt", "content": "hi\n"}, intro: "Calling `write` with `{\"content\":\"hi\\n\",\"path\":\"a.txt\"}`."},
		{prompt: "  CALL ls  ", isCall: true, tool: "ls", args: map[string]any{}, intro: "Calling `ls` with `{}`."},
		{prompt: `Call read {"path": "go.mod", "offset": 2}`, isCall: true, tool: "read",
			args: map[string]any{"path": "go.mod", "offset": 2.0}},
		{prompt: "call edit {\n  \"path\": \"a\",\n  \"edits\": [{\"oldText\": \"x\", \"newText\": \"y\"}]\n}", isCall: true, tool: "edit",
			args: map[string]any{"path": "a", "edits": []any{map[string]any{"oldText": "x", "newText": "y"}}}},
		{prompt: "call\tgrep\t{\"pattern\":\"x\"}", isCall: true, tool: "grep", args: map[string]any{"pattern": "x"}},
		{prompt: `call read path=go.mod`, isCall: true, tool: "read",
			problem: "I cannot call `read`: its arguments must be one JSON object, as in `call read {\"path\": \"README.md\"}`, and `path=go.mod` is not (invalid character 'p' looking for beginning of value)."},
		{prompt: `call read ["a"]`, isCall: true, tool: "read", problem: "is not (json: cannot unmarshal array"},
		{prompt: `call read null`, isCall: true, tool: "read", problem: "is not (it is null)"},
		{prompt: "call", isCall: false},
		{prompt: "callous remark", isCall: false},
		{prompt: "please call bash", isCall: false},
	}
	for _, tt := range tests {
		t.Run(tt.prompt, func(t *testing.T) {
			cmd, ok := parseCall(tt.prompt)
			if ok != tt.isCall {
				t.Fatalf("parseCall ok = %v, want %v", ok, tt.isCall)
			}
			if !ok {
				return
			}
			if cmd.tool != tt.tool {
				t.Errorf("tool = %q, want %q", cmd.tool, tt.tool)
			}
			if tt.problem != "" {
				if !strings.Contains(cmd.problem, tt.problem) || cmd.args != nil {
					t.Errorf("problem = %q (args %v), want %q", cmd.problem, cmd.args, tt.problem)
				}
				return
			}
			if want := []map[string]any{tt.args}; cmd.problem != "" || !reflect.DeepEqual(cmd.args, want) {
				t.Errorf("args = %#v (problem %q), want one call with %#v", cmd.args, cmd.problem, tt.args)
			}
			if tt.intro != "" && cmd.intro != tt.intro {
				t.Errorf("intro = %q, want %q", cmd.intro, tt.intro)
			}
		})
	}
}

// TestCallThroughTheProvider: a `call` prompt becomes a tool call of that
// tool, an answer saying the tool is missing, or the problem with its
// arguments.
func TestCallThroughTheProvider(t *testing.T) {
	tools := append(slices.Clone(testTools), agent.ToolSpec{Name: "write"})
	tests := []struct {
		prompt string
		call   string
		args   map[string]any
		text   string
	}{
		{`call write {"path": "x.txt", "content": "y"}`, "write", map[string]any{"path": "x.txt", "content": "y"}, "Calling `write`"},
		{`call find {"pattern": "*.go"}`, "", nil, "I would use the `find` tool for that, but it is not available"},
		{`call write {bad}`, "", nil, "I cannot call `write`: its arguments must be one JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.prompt, func(t *testing.T) {
			llm := llmOf(user(tt.prompt))
			llm.Tools = tools
			_, msg := ask(t, newTestProvider(nil), llm, agent.StreamOptions{})
			calls := msg.ToolCalls()
			if !strings.Contains(msg.TextContent(), tt.text) {
				t.Errorf("text %q lacks %q", msg.TextContent(), tt.text)
			}
			if tt.call == "" {
				if len(calls) != 0 || msg.StopReason != agent.StopReasonStop {
					t.Errorf("calls %v (stop %q), want a plain answer", calls, msg.StopReason)
				}
				return
			}
			if len(calls) != 1 || calls[0].Name != tt.call || !reflect.DeepEqual(calls[0].Arguments, tt.args) ||
				msg.StopReason != agent.StopReasonToolUse {
				t.Errorf("calls %+v (stop %q), want %s %v", calls, msg.StopReason, tt.call, tt.args)
			}
		})
	}
}

func TestGreetingOffersCall(t *testing.T) {
	_, msg := ask(t, newTestProvider(nil), llmOf(user("hello")), agent.StreamOptions{})
	if !strings.Contains(msg.TextContent(), "`call <tool> {json}`") {
		t.Errorf("greeting does not offer call:\n%s", msg.TextContent())
	}
}

// TestReadAnswerWithoutLineNumbers: the answer to a read quotes the file,
// not the numbers read puts before each line.
func TestReadAnswerWithoutLineNumbers(t *testing.T) {
	read := agent.ToolCall("call_2", "read", map[string]any{"path": "main.go"})
	tests := []struct {
		name, output string
		want         []string
	}{
		{"numbered", "1\tpackage main\n2\t\n3\tfunc main() {}", []string{"`main.go` has 3 lines of Go:", "```go\npackage main\n\nfunc main() {}\n```"}},
		{"numbered with a note", " 9\tx\n10\ty\n\n[showing lines 9-10 of 40 in total; use offset=11 to continue]",
			[]string{"has 2 lines", "```go\nx\ny\n```"}},
		{"not numbered", "plain\ntext", []string{"has 2 lines", "```go\nplain\ntext\n```"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			llm := llmOf(user("do it"), assistant("", read), toolResult(read, tt.output, false))
			_, msg := ask(t, newTestProvider(nil), llm, agent.StreamOptions{})
			for _, w := range tt.want {
				if !strings.Contains(msg.TextContent(), w) {
					t.Errorf("answer lacks %q:\n%s", w, msg.TextContent())
				}
			}
		})
	}
}
