package agent

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseTextToolCalls(t *testing.T) {
	known := func(name string) bool { return name == "read" || name == "ls" }
	read := textCall{name: "read", args: map[string]any{"path": "a.go"}}
	ls := textCall{name: "ls", args: map[string]any{}}
	big := `{"name":"read","arguments":{"path":"` + strings.Repeat("x", MaxTextToolCallBytes) + `"}}`
	tests := []struct {
		name  string
		text  string
		prose string
		calls []textCall
	}{
		{"a tagged call", `<tool_call>{"name":"read","arguments":{"path":"a.go"}}</tool_call>`, "", []textCall{read}},
		{"a tagged call on its own lines", "<tool_call>\n{\"name\": \"read\", \"arguments\": {\"path\": \"a.go\"}}\n</tool_call>\n", "", []textCall{read}},
		{"prose, then tagged calls", "Let me look.\n<tool_call>{\"name\":\"read\",\"arguments\":{\"path\":\"a.go\"}}</tool_call>\n<tool_call>{\"name\":\"ls\",\"arguments\":{}}</tool_call>",
			"Let me look.\n", []textCall{read, ls}},
		{"arguments as a JSON string", `<tool_call>{"name":"read","arguments":"{\"path\":\"a.go\"}"}</tool_call>`, "", []textCall{read}},
		{"parameters for arguments", `{"name":"read","parameters":{"path":"a.go"}}`, "", []textCall{read}},
		{"the whole answer a JSON object", "  {\"name\":\"read\",\"arguments\":{\"path\":\"a.go\"}}\n", "", []textCall{read}},
		{"the whole answer a fenced object", "```json\n{\"name\":\"read\",\"arguments\":{\"path\":\"a.go\"}}\n```", "", []textCall{read}},

		{"prose that shows JSON", `To read a file, send {"name":"read","arguments":{"path":"a.go"}} to the tool.`, "", nil},
		{"prose after a bare object", "{\"name\":\"read\",\"arguments\":{\"path\":\"a.go\"}}\nThat reads it.", "", nil},
		{"an unknown tool, bare", `{"name":"shell","arguments":{"cmd":"rm -rf /"}}`, "", nil},
		{"an unknown tool among tagged calls", `<tool_call>{"name":"read","arguments":{"path":"a.go"}}</tool_call><tool_call>{"name":"shell","arguments":{}}</tool_call>`, "", nil},
		{"text after the last tagged call", `<tool_call>{"name":"read","arguments":{"path":"a.go"}}</tool_call> and then I will fix it`, "", nil},
		{"an unclosed tag", `<tool_call>{"name":"read","arguments":{"path":"a.go"}}`, "", nil},
		{"no arguments", `{"name":"read"}`, "", nil},
		{"another key", `{"name":"read","arguments":{"path":"a.go"},"why":"to see"}`, "", nil},
		{"arguments not an object", `{"name":"read","arguments":["a.go"]}`, "", nil},
		{"broken JSON", `<tool_call>{"name":"read","arguments":{"path":"a.go"}</tool_call>`, "", nil},
		{"a JSON answer that is data", `{"path":"a.go","lines":3}`, "", nil},
		{"over the size limit", big, "", nil},
		{"plain prose", "All done: the tests pass.", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prose, calls, ok := parseTextToolCalls(tt.text, known)
			if ok != (tt.calls != nil) {
				t.Fatalf("ok = %v, want %v (calls %+v)", ok, tt.calls != nil, calls)
			}
			if !ok {
				return
			}
			if prose != tt.prose || !reflect.DeepEqual(calls, tt.calls) {
				t.Errorf("got %q %+v, want %q %+v", prose, calls, tt.prose, tt.calls)
			}
		})
	}
}

func TestRepairTextToolCalls(t *testing.T) {
	known := func(name string) bool { return name == "read" }
	id := func() string { return "c1" }
	tagged := `I'll read it. <tool_call>{"name":"read","arguments":{"path":"a.go"}}</tool_call>`
	thinking := Content{Type: ContentThinking, Thinking: "hm"}
	answer := func(reason StopReason, content ...Content) Message {
		return Message{Role: RoleAssistant, StopReason: reason, Content: content}
	}
	call := ToolCall("c1", "read", map[string]any{"path": "a.go"})
	tests := []struct {
		name string
		in   Message
		want Message
		ok   bool
	}{
		{"promoted, keeping thinking and prose", answer(StopReasonStop, thinking, Text(tagged)),
			answer(StopReasonToolUse, thinking, Text("I'll read it."), call), true},
		{"a call alone leaves no text", answer(StopReasonStop, Text(`{"name":"read","arguments":{"path":"a.go"}}`)),
			answer(StopReasonToolUse, call), true},
		{"a cut answer is not repaired", answer(StopReasonLength, Text(tagged)), answer(StopReasonLength, Text(tagged)), false},
		{"an error is not repaired", answer(StopReasonError, Text(tagged)), answer(StopReasonError, Text(tagged)), false},
		{"an answer with real calls is not repaired", answer(StopReasonStop, Text(tagged), call),
			answer(StopReasonStop, Text(tagged), call), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := repairTextToolCalls(tt.in, known, id)
			if ok != tt.ok || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v %v, want %+v %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}
