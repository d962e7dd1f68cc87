package llmtest

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// replyParts is the answer the contract's servers stream, one part per
// text delta.
var replyParts = []string{"Ol", "á, ", "mundo", "!"}

// RunContract checks that the StreamFn h opens keeps agent.StreamFn's
// contract, against test servers that answer, fail, are cut short or stall
// (or, with h.Play, the provider itself doing so).
func RunContract(t *testing.T, h ContractHarness) {
	tests := []struct {
		name string
		run  func(t *testing.T, h ContractHarness)
	}{
		{"ends with one done", contractDone},
		{"events are well formed", contractEvents},
		{"failures are error events", contractFailures},
		{"cancel mid-stream aborts", contractCancel},
		{"cancel before the call aborts", contractCancelFirst},
		{"closing early still resolves", contractClose},
		{"concurrent calls", contractConcurrent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, h) })
	}
}

// contractDone: the stream ends with exactly one done event, last, then
// closes; the result is the done event's assistant message, stamped with
// the model.
func contractDone(t *testing.T, h ContractHarness) {
	events, msg := Drain(t, h.play(t, Answer)(context.Background(), h.Model, Prompt, agent.StreamOptions{}))
	CheckEvents(t, events, msg)
	if last := events[len(events)-1]; last.Type != agent.EventDone {
		t.Fatalf("events = %v, want done last; error %+v", Types(events), msg.Error)
	}
	if msg.Role != agent.RoleAssistant || msg.StopReason != agent.StopReasonStop || msg.Error != nil || msg.ErrorMessage != "" {
		t.Errorf("result = %s %s %+v %q, want an assistant message that stopped", msg.Role, msg.StopReason, msg.Error, msg.ErrorMessage)
	}
	m := h.Model
	if msg.Provider != m.Provider || msg.Model != m.ID || msg.API != m.API {
		t.Errorf("result is from %s/%s (%s), want %s/%s (%s)", msg.Provider, msg.Model, msg.API, m.Provider, m.ID, m.API)
	}
	if want := strings.Join(replyParts, ""); msg.TextContent() != want {
		t.Errorf("text = %q, want %q", msg.TextContent(), want)
	}
}

// contractEvents: served in small irregular pieces, the events are well
// formed and their deltas add up to the answer.
func contractEvents(t *testing.T, h ContractHarness) {
	events, msg := Drain(t, h.play(t, AnswerInPieces)(context.Background(), h.Model, Prompt, agent.StreamOptions{}))
	CheckEvents(t, events, msg)
	var deltas strings.Builder
	for _, ev := range events {
		if ev.Type == agent.EventTextDelta {
			deltas.WriteString(ev.Delta)
		}
	}
	if want := strings.Join(replyParts, ""); deltas.String() != want {
		t.Errorf("text deltas add up to %q, want %q", deltas.String(), want)
	}
}

// contractFailures: a failure status, a refused connection and a stream cut
// short each end with one error event carrying a structured error, neither
// a panic nor a hang.
func contractFailures(t *testing.T, h ContractHarness) {
	tests := []struct {
		name string
		b    Behaviour
		kind agent.ErrorKind // "" when any kind will do
	}{
		{"failure status", FailStatus, agent.ErrorHTTP},
		{"connection refused", Refuse, agent.ErrorNetwork},
		{"cut short", CutShort, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stream := h.play(t, tt.b)(context.Background(), h.Model, Prompt, agent.StreamOptions{})
			events, msg := Drain(t, stream)
			CheckEvents(t, events, msg)
			e := msg.Error
			if last := events[len(events)-1]; last.Type != agent.EventError || msg.StopReason != agent.StopReasonError || e == nil {
				t.Fatalf("events = %v, stop %s error %+v, want an error", Types(events), msg.StopReason, e)
			}
			if tt.kind != "" && e.Kind != tt.kind || e.Kind == "" || e.Message == "" {
				t.Errorf("error = %+v, want kind %q and a message", e, tt.kind)
			}
			if tt.kind == agent.ErrorHTTP && e.Status != http.StatusServiceUnavailable {
				t.Errorf("status = %d, want 503", e.Status)
			}
			noted := h.NotedErrors && strings.HasPrefix(msg.ErrorMessage, e.Error()+" — ")
			if msg.ErrorMessage != e.Error() && !noted || strings.Contains(msg.ErrorMessage, "panicked") {
				t.Errorf("errorMessage = %q, want %q", msg.ErrorMessage, e.Error())
			}
		})
	}
}

// contractCancel: cancelling the context mid-stream ends the stream
// promptly with stopReason aborted, keeping the text so far.
func contractCancel(t *testing.T, h ContractHarness) {
	fn := h.play(t, Stall)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream := fn(ctx, h.Model, Prompt, agent.StreamOptions{})
	events := untilText(t, stream)
	cancel()
	start := time.Now()
	rest, msg := Drain(t, stream)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the stream took %s to end after the cancel", d)
	}
	CheckEvents(t, append(events, rest...), msg)
	if msg.StopReason != agent.StopReasonAborted || msg.TextContent() != "Hel" {
		t.Errorf("stop %s text %q error %+v, want aborted with %q", msg.StopReason, msg.TextContent(), msg.Error, "Hel")
	}
}

// contractCancelFirst: a call made with a cancelled context ends at once,
// aborted.
func contractCancelFirst(t *testing.T, h ContractHarness) {
	fn := h.play(t, Answer)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	events, msg := Drain(t, fn(ctx, h.Model, Prompt, agent.StreamOptions{}))
	CheckEvents(t, events, msg)
	if msg.StopReason != agent.StopReasonAborted {
		t.Errorf("stop %s error %+v, want aborted", msg.StopReason, msg.Error)
	}
}

// contractClose: a consumer that closes the stream after the first event
// still gets the result.
func contractClose(t *testing.T, h ContractHarness) {
	stream := h.play(t, AnswerInPieces)(context.Background(), h.Model, Prompt, agent.StreamOptions{})
	<-stream.Events()
	stream.Close()
	ctx, cancel := context.WithTimeout(context.Background(), DrainTimeout)
	defer cancel()
	msg, err := stream.Result(ctx)
	if err != nil || msg.StopReason != agent.StopReasonStop {
		t.Errorf("Result = %s %+v, %v; want the stopped message", msg.StopReason, msg.Error, err)
	}
}

// contractConcurrent: one StreamFn serves several calls at once (run under
// -race).
func contractConcurrent(t *testing.T, h ContractHarness) {
	const calls = 8
	fn := h.play(t, AnswerInPieces)
	results := make(chan string, calls)
	for range calls {
		go func() {
			stream := fn(context.Background(), h.Model, Prompt, agent.StreamOptions{})
			for range stream.Events() {
			}
			msg, err := stream.Result(context.Background())
			results <- fmt.Sprintf("%s %q %v", msg.StopReason, msg.TextContent(), err)
		}()
	}
	want := fmt.Sprintf("%s %q %v", agent.StopReasonStop, strings.Join(replyParts, ""), nil)
	for range calls {
		select {
		case got := <-results:
			if got != want {
				t.Errorf("call = %s, want %s", got, want)
			}
		case <-time.After(DrainTimeout):
			t.Fatal("the calls did not end")
		}
	}
}

// untilText reads stream up to its first text delta, failing when none
// comes within DrainTimeout.
func untilText(t testing.TB, stream *agent.AssistantStream) []agent.AssistantEvent {
	t.Helper()
	var events []agent.AssistantEvent
	timeout := time.After(DrainTimeout)
	for {
		select {
		case ev, ok := <-stream.Events():
			if !ok {
				t.Fatalf("the stream ended before any text: %v", Types(events))
			}
			events = append(events, ev)
			if ev.Type == agent.EventTextDelta {
				return events
			}
		case <-timeout:
			t.Fatalf("no text within %s: %v", DrainTimeout, Types(events))
		}
	}
}
