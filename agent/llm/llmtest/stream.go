package llmtest

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// Epoch is the time the providers' injected clocks return in tests.
var Epoch = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// Prompt is the short request the suites send. Callers must not change it.
var Prompt = agent.LLMContext{
	SystemPrompt: "You are a test.",
	Messages:     []agent.Message{agent.UserMessage("Say hi in Portuguese", Epoch)},
}

// DrainTimeout bounds how long Drain waits for a stream to end.
const DrainTimeout = 10 * time.Second

// Drain reads every event, then the result, failing with every goroutine's
// stack when the stream has not ended within DrainTimeout.
func Drain(t testing.TB, stream *agent.AssistantStream) ([]agent.AssistantEvent, agent.Message) {
	t.Helper()
	return drainWithin(t, DrainTimeout, stream)
}

// EndsWithin drains stream and returns its result, failing with every
// goroutine's stack when the stream has not ended within d.
func EndsWithin(t testing.TB, d time.Duration, stream *agent.AssistantStream) agent.Message {
	t.Helper()
	_, msg := drainWithin(t, d, stream)
	return msg
}

func drainWithin(t testing.TB, d time.Duration, stream *agent.AssistantStream) ([]agent.AssistantEvent, agent.Message) {
	t.Helper()
	var events []agent.AssistantEvent
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range stream.Events() {
			events = append(events, ev)
		}
	}()
	select {
	case <-done:
	case <-time.After(d):
		buf := make([]byte, 1<<20)
		t.Fatalf("the stream did not end within %s:\n%s", d, buf[:runtime.Stack(buf, true)])
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	msg, err := stream.Result(ctx)
	if err != nil {
		t.Fatalf("Result: %v", err)
	}
	return events, msg
}

// Types lists the events' types, for messages.
func Types(events []agent.AssistantEvent) []agent.AssistantEventType {
	out := make([]agent.AssistantEventType, len(events))
	for i, ev := range events {
		out[i] = ev.Type
	}
	return out
}

// ThinkingOf joins the thinking blocks of m.
func ThinkingOf(m agent.Message) string {
	var b strings.Builder
	for _, c := range m.Content {
		if c.Type == agent.ContentThinking {
			b.WriteString(c.Thinking)
		}
	}
	return b.String()
}

// SignatureOf is the signature of m's first thinking block that is not
// redacted.
func SignatureOf(m agent.Message) string {
	for _, c := range m.Content {
		if c.Type == agent.ContentThinking && !c.Redacted {
			return c.Signature
		}
	}
	return ""
}

// JSONValue round-trips v through JSON so that numbers compare as float64.
func JSONValue(t testing.TB, v any) any {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// JSONEqual reports whether a and b encode to the same JSON.
func JSONEqual(t testing.TB, a, b any) bool {
	t.Helper()
	x, _ := json.Marshal(JSONValue(t, a))
	y, _ := json.Marshal(JSONValue(t, b))
	return bytes.Equal(x, y)
}

// JSONString is s as a JSON string literal.
func JSONString(s string) string {
	raw, _ := json.Marshal(s)
	return string(raw)
}

// blockKinds maps each block event to the kind of block it is about.
var blockKinds = map[agent.AssistantEventType]agent.ContentType{
	agent.EventTextStart: agent.ContentText, agent.EventTextDelta: agent.ContentText, agent.EventTextEnd: agent.ContentText,
	agent.EventThinkingStart: agent.ContentThinking, agent.EventThinkingDelta: agent.ContentThinking,
	agent.EventThinkingEnd:   agent.ContentThinking,
	agent.EventToolCallStart: agent.ContentToolCall, agent.EventToolCallDelta: agent.ContentToolCall,
	agent.EventToolCallEnd: agent.ContentToolCall,
}

// CheckEvents checks the shape every stream must have, ending in done or
// error: start first unless the request failed before it, one final event,
// last, whose message is the result; assistant snapshots; blocks numbered in
// order, each opened before its deltas and closed at most once; and deltas
// and *_end events that agree with the final content.
func CheckEvents(t testing.TB, events []agent.AssistantEvent, msg agent.Message) {
	t.Helper()
	n := len(events)
	if n == 0 {
		t.Fatal("no events")
	}
	last := events[n-1]
	if last.Type != agent.EventDone && last.Type != agent.EventError {
		t.Fatalf("events = %v, want done or error last", Types(events))
	}
	if n > 1 && events[0].Type != agent.EventStart {
		t.Fatalf("events = %v, want start first", Types(events))
	}
	if last.Reason != msg.StopReason || !reflect.DeepEqual(last.Partial, msg) {
		t.Errorf("%s's message (reason %s) differs from the result (%s)", last.Type, last.Reason, msg.StopReason)
	}
	if msg.Role != agent.RoleAssistant {
		t.Errorf("result role = %q, want assistant", msg.Role)
	}
	var deltas []string // per block
	open := map[int]bool{}
	var text, thinking strings.Builder
	for i, ev := range events {
		if i < n-1 && (ev.Type == agent.EventDone || ev.Type == agent.EventError || i > 0 && ev.Type == agent.EventStart) {
			t.Fatalf("events = %v: %s at %d", Types(events), ev.Type, i)
		}
		if ev.Partial.Role != agent.RoleAssistant {
			t.Errorf("event %d (%s) role = %q", i, ev.Type, ev.Partial.Role)
		}
		kind, ok := blockKinds[ev.Type]
		if !ok {
			continue
		}
		idx := ev.ContentIndex
		if idx < 0 || idx >= len(ev.Partial.Content) || ev.Partial.Content[idx].Type != kind {
			t.Fatalf("event %d (%s) index %d does not name a %s block of %+v", i, ev.Type, idx, kind, ev.Partial.Content)
		}
		switch ev.Type {
		case agent.EventTextStart, agent.EventThinkingStart, agent.EventToolCallStart:
			if idx != len(deltas) {
				t.Fatalf("event %d (%s) opens block %d, want %d", i, ev.Type, idx, len(deltas))
			}
			deltas = append(deltas, "")
			open[idx] = true
			continue
		}
		if !open[idx] {
			t.Fatalf("event %d (%s) is about block %d, which is not open", i, ev.Type, idx)
		}
		switch ev.Type {
		case agent.EventTextDelta, agent.EventThinkingDelta, agent.EventToolCallDelta:
			deltas[idx] += ev.Delta
			if ev.Type == agent.EventTextDelta {
				text.WriteString(ev.Delta)
			} else if ev.Type == agent.EventThinkingDelta {
				thinking.WriteString(ev.Delta)
			}
		case agent.EventTextEnd, agent.EventThinkingEnd:
			open[idx] = false
			if ev.Content != deltas[idx] {
				t.Errorf("event %d (%s) content %q, deltas add up to %q", i, ev.Type, ev.Content, deltas[idx])
			}
		case agent.EventToolCallEnd:
			open[idx] = false
			if ev.ToolCall == nil || idx < len(msg.Content) && !reflect.DeepEqual(*ev.ToolCall, msg.Content[idx]) {
				t.Errorf("event %d toolcall_end %+v, final block %+v", i, ev.ToolCall, msg.Content)
			}
		}
	}
	if len(deltas) != len(msg.Content) {
		t.Errorf("%d blocks opened, the result has %d", len(deltas), len(msg.Content))
	}
	for i, c := range msg.Content {
		if i < len(deltas) && (c.Type == agent.ContentText && c.Text != deltas[i] ||
			c.Type == agent.ContentThinking && c.Thinking != deltas[i]) {
			t.Errorf("block %d = %+v, deltas add up to %q", i, c, deltas[i])
		}
	}
	if text.String() != msg.TextContent() || thinking.String() != ThinkingOf(msg) {
		t.Errorf("deltas add up to %q / %q, message has %q / %q",
			text.String(), thinking.String(), msg.TextContent(), ThinkingOf(msg))
	}
}

// Clock returns Epoch, for the providers' injected clocks.
func Clock() time.Time { return Epoch }
