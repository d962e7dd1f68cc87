package agent_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// step is one call on a holding StreamWriter.
type step func(w *agent.StreamWriter)

func text(s string) step          { return func(w *agent.StreamWriter) { w.TextDelta(s) } }
func thinking(s string) step      { return func(w *agent.StreamWriter) { w.ThinkingDelta(s) } }
func args(s string) step          { return func(w *agent.StreamWriter) { w.ToolCallDelta(s) } }
func flush(w *agent.StreamWriter) { w.Flush() }
func call(id string) step         { return func(w *agent.StreamWriter) { w.ToolCallStart(id, "bash") } }

// trace is an event as "type index delta", with the text of the snapshot
// it carries.
func trace(ev agent.AssistantEvent) string {
	s := fmt.Sprintf("%s %d %q", ev.Type, ev.ContentIndex, ev.Delta)
	if ev.Type == agent.EventTextDelta {
		s += fmt.Sprintf(" [%s]", ev.Partial.TextContent())
	}
	return s
}

// TestHeldDeltas: a holding writer merges the deltas of one block up to
// Flush or the next event of another kind, each merged event carrying the
// message as it stands; nothing is lost at the end or on an error.
func TestHeldDeltas(t *testing.T) {
	tests := []struct {
		name  string
		steps []step
		want  []string
		fail  bool
	}{
		{"merged up to a flush", []step{text("Hel"), text("lo"), flush, text(" you"), flush, flush},
			[]string{`start 0 ""`, `text_start 0 ""`, `text_delta 0 "Hello" [Hello]`, `text_delta 0 " you" [Hello you]`, `text_end 0 ""`, `done 0 ""`}, false},
		{"released by the end of the message", []step{text("a"), text("b")},
			[]string{`start 0 ""`, `text_start 0 ""`, `text_delta 0 "ab" [ab]`, `text_end 0 ""`, `done 0 ""`}, false},
		{"a block of another kind comes after the held delta", []step{thinking("hm"), thinking("m"), text("ok"), flush},
			[]string{`start 0 ""`, `thinking_start 0 ""`, `thinking_delta 0 "hmm"`, `thinking_end 0 ""`, `text_start 1 ""`, `text_delta 1 "ok" [ok]`, `text_end 1 ""`, `done 0 ""`}, false},
		{"tool-call arguments", []step{text("x"), call("c1"), args(`{"a":`), args(`1}`), flush},
			[]string{`start 0 ""`, `text_start 0 ""`, `text_delta 0 "x" [x]`, `text_end 0 ""`, `toolcall_start 1 ""`, `toolcall_delta 1 "{\"a\":1}"`, `toolcall_end 1 ""`, `done 0 ""`}, false},
		{"an error keeps what was held", []step{text("cut"), text(" short")},
			[]string{`start 0 ""`, `text_start 0 ""`, `text_delta 0 "cut short" [cut short]`, `text_end 0 ""`, `error 0 ""`}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stream := agent.NewAssistantStream()
			go func() {
				w := agent.NewStreamWriter(context.Background(), stream, agent.Model{}, time.Time{})
				w.HoldDeltas()
				w.Start()
				for _, s := range tt.steps {
					s(w)
				}
				if tt.fail {
					w.Fail(&agent.ProviderError{Kind: agent.ErrorStream, Message: "boom"})
					return
				}
				w.Finish(agent.StopReasonStop)
			}()
			var got []string
			for ev := range stream.Events() {
				got = append(got, trace(ev))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("events:\n%s\nwant:\n%s", join(got), join(tt.want))
			}
		})
	}
}

// TestTryFlushDoesNotWait: with the consumer a whole buffer behind,
// TryFlush keeps the delta and reports it; once the consumer reads, it
// hands the delta over, once.
func TestTryFlushDoesNotWait(t *testing.T) {
	stream := agent.NewAssistantStream()
	w := agent.NewStreamWriter(context.Background(), stream, agent.Model{}, time.Time{})
	w.HoldDeltas()
	w.Start()
	if !w.TryFlush() {
		t.Fatal("TryFlush with nothing held reported a held delta")
	}
	calls := 0
	for full := false; !full; { // one delta an event until the buffer is full
		w.TextDelta("x")
		calls++
		full = !w.TryFlush()
	}
	var deltas strings.Builder
	read := func(ev agent.AssistantEvent) {
		if ev.Type == agent.EventTextDelta {
			deltas.WriteString(ev.Delta)
		}
	}
	read(<-stream.Events())
	if !w.TryFlush() {
		t.Fatalf("TryFlush kept the delta after the consumer read (%d deltas)", calls)
	}
	go w.Finish(agent.StopReasonStop)
	for ev := range stream.Events() {
		read(ev)
	}
	if want := strings.Repeat("x", calls); deltas.String() != want {
		t.Errorf("deltas add up to %d bytes, want the %d written", deltas.Len(), calls)
	}
}
