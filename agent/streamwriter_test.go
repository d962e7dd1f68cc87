package agent_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// TestStreamWriterShowsArgumentsAsTheyStream checks the snapshot of every
// tool-call delta carries the arguments so far, so a UI can show a bash
// command while it streams, and the end event the exact parse.
func TestStreamWriterShowsArgumentsAsTheyStream(t *testing.T) {
	const command = `echo "héllo" && ls -la`
	raw := `{"command": "echo \"héllo\" && ls -la", "timeout": 5}`
	stream := agent.NewAssistantStream()
	go func() {
		w := agent.NewStreamWriter(context.Background(), stream, agent.Model{}, time.Time{})
		w.ToolCallStart("call-1", "bash")
		for i := 0; i < len(raw); i += 3 {
			w.ToolCallDelta(raw[i:min(i+3, len(raw))])
		}
		w.Finish(agent.StopReasonToolUse)
	}()
	var shown []string
	var end *agent.Content
	for ev := range stream.Events() {
		switch ev.Type {
		case agent.EventToolCallDelta:
			cmd, _ := ev.Partial.Content[0].Arguments["command"].(string)
			if len(shown) == 0 || cmd != shown[len(shown)-1] {
				shown = append(shown, cmd)
			}
		case agent.EventToolCallEnd:
			end = ev.ToolCall
		}
	}
	for _, cmd := range shown {
		if !strings.HasPrefix(command, cmd) {
			t.Errorf("partial command %q is not a prefix of %q", cmd, command)
		}
	}
	if len(shown) < len(command)/3 {
		t.Errorf("the command showed in %d steps: %q", len(shown), shown)
	}
	want := map[string]any{"command": command, "timeout": float64(5)}
	if end == nil || !reflect.DeepEqual(end.Arguments, want) {
		t.Fatalf("tool call end = %#v, want arguments %#v", end, want)
	}
}

// TestToolCallDeltaClosesTheOpenTextBlock: a provider that sends argument
// pieces without a tool-call start (some servers do) still gets a text_end
// for the text before them.
func TestToolCallDeltaClosesTheOpenTextBlock(t *testing.T) {
	stream := agent.NewAssistantStream()
	go func() {
		w := agent.NewStreamWriter(context.Background(), stream, agent.Model{}, time.Time{})
		w.TextDelta("let me look")
		w.ToolCallDelta(`{"path":"a"}`)
		w.Finish(agent.StopReasonToolUse)
	}()
	var types []string
	for ev := range stream.Events() {
		types = append(types, string(ev.Type))
	}
	want := "[text_start text_delta text_end toolcall_start toolcall_delta toolcall_end done]"
	if got := strings.Join(types, " "); "["+got+"]" != want {
		t.Fatalf("events %s, want %s", got, want)
	}
}
