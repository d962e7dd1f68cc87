package openai

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
	f.Add([]byte(chunk(`{"content":"Hi"}`) + finish("stop") + done))
	f.Add([]byte(chunk(`{"tool_calls":[{"index":0,"id":"a","function":{"name":"ls","arguments":"{\"p"}}]}`) + finish("tool_calls")))
	f.Add([]byte(": OPENROUTER PROCESSING\n\n" + chunk(`{"reasoning":"x"}`) + "data: {\"error\":{\"message\":\"boom\"}}\n\n"))
	f.Add([]byte("data: {\"choices\":[{\"delta\":{\"content\":\n\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		p, err := New(Config{BaseURL: "http://fuzz.invalid/v1", Now: func() time.Time { return t0 },
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
