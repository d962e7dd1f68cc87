package anthropic

import (
	"context"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// FuzzStream feeds arbitrary bytes to the provider as a 200 event-stream body
// (through a transport, without a network) and checks that it never panics
// and always ends the stream with a final message. The seed corpus in
// testdata/fuzz/FuzzStream holds the recorded streams.
func FuzzStream(f *testing.F) {
	f.Add([]byte(messageStart(1, 2, 3) + textBlock(0, "Hi") + messageEnd("end_turn", 2)))
	f.Add([]byte(messageStart(1, 0, 0) + blockStart(0, `{"type":"tool_use","id":"t","name":"ls","input":{}}`) +
		blockDelta(0, `{"type":"input_json_delta","partial_json":"{\"p"}`) + blockStop(0) + messageEnd("tool_use", 2)))
	f.Add([]byte(blockStart(0, `{"type":"redacted_thinking","data":"x"}`) + sse("error", `{"type":"error","error":{"type":"overloaded_error"}}`)))
	f.Add([]byte("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":\n\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		p, err := New(Config{BaseURL: "http://fuzz.invalid", Now: func() time.Time { return t0 },
			HTTPClient: &http.Client{Transport: bodyTransport{status: http.StatusOK, body: body}}})
		if err != nil {
			t.Fatal(err)
		}
		msg := endsWithin(t, 5*time.Second, p.Stream(context.Background(), testModel, simpleContext, agent.StreamOptions{}))
		switch msg.StopReason {
		case agent.StopReasonStop, agent.StopReasonLength, agent.StopReasonToolUse:
		case agent.StopReasonError:
			if msg.Error == nil || strings.Contains(msg.ErrorMessage, "panicked") {
				t.Fatalf("error = %+v (%s)", msg.Error, msg.ErrorMessage)
			}
		default:
			t.Fatalf("stop reason %q", msg.StopReason)
		}
	})
}

// endsWithin drains stream and returns its result, failing with every
// goroutine's stack when the stream has not ended within d.
func endsWithin(t *testing.T, d time.Duration, stream *agent.AssistantStream) agent.Message {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range stream.Events() {
		}
	}()
	select {
	case <-done:
	case <-time.After(d):
		buf := make([]byte, 1<<20)
		t.Fatalf("the stream did not end within %s:\n%s", d, buf[:runtime.Stack(buf, true)])
	}
	msg, err := stream.Result(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return msg
}
