package anthropic

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// TestHTTPErrors checks that a failure status keeps the status, the
// provider's type and code, its message and a bounded excerpt of the body,
// and that nothing streams before it.
func TestHTTPErrors(t *testing.T) {
	huge := `{"type":"error","error":{"type":"api_error","message":"` + strings.Repeat("x", 10_000) + `"}}`
	tests := []struct {
		name        string
		status      int
		body        string
		typ, code   string
		message     string
		bodyExcerpt string
	}{
		{name: "429 rate limit", status: 429,
			body: `{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization of 50,000 input tokens per minute."},"request_id":"req_1"}`,
			typ:  "rate_limit_error", message: "This request would exceed the rate limit for your organization of 50,000 input tokens per minute."},
		{name: "401 bad key", status: 401,
			body: `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"},"request_id":"req_2"}`,
			typ:  "authentication_error", message: "invalid x-api-key"},
		{name: "400 prompt too long", status: 400,
			body: `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}`,
			typ:  "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum"},
		{name: "400 billing with an error code", status: 400,
			body: `{"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API.","details":{"error_code":"credit_balance_too_low"}}}`,
			typ:  "invalid_request_error", code: "credit_balance_too_low", message: "Your credit balance is too low to access the Anthropic API."},
		{name: "500 api error", status: 500,
			body: `{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`,
			typ:  "api_error", message: "Internal server error"},
		{name: "529 overloaded", status: 529,
			body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
			typ:  "overloaded_error", message: "Overloaded"},
		{name: "502 html", status: 502, body: "<html>\n<body>Bad Gateway</body></html>", message: "<html>",
			bodyExcerpt: "Bad Gateway"},
		{name: "503 empty body", status: 503, body: "", message: "Service Unavailable"},
		{name: "500 huge body", status: 500, body: huge, typ: "api_error", message: strings.Repeat("x", agent.MaxErrorBody)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			events, msg := ask(t, Config{BaseURL: srv.URL})
			if len(events) != 1 || events[0].Type != agent.EventError {
				t.Errorf("events = %v, want one error", types(events))
			}
			e := msg.Error
			if msg.StopReason != agent.StopReasonError || e == nil {
				t.Fatalf("stop %s error %+v", msg.StopReason, e)
			}
			if e.Kind != agent.ErrorHTTP || e.Status != tt.status || e.Type != tt.typ || e.Code != tt.code || e.Message != tt.message {
				t.Errorf("error = %s/%d/%q/%q/%q, want http/%d/%q/%q/%q",
					e.Kind, e.Status, e.Type, e.Code, e.Message, tt.status, tt.typ, tt.code, tt.message)
			}
			excerpt := tt.bodyExcerpt
			if excerpt == "" {
				excerpt = tt.body[:min(len(tt.body), 100)]
			}
			if len(e.Body) > agent.MaxErrorBody || !strings.Contains(e.Body, excerpt) {
				t.Errorf("body (%d bytes) = %.120q, want ≤ %d bytes containing %.60q", len(e.Body), e.Body, agent.MaxErrorBody, excerpt)
			}
			if msg.ErrorMessage != e.Error() {
				t.Errorf("errorMessage = %q, want %q", msg.ErrorMessage, e.Error())
			}
		})
	}
}

// TestMidStreamError checks an error event after content has streamed (the
// recorded overloaded stream covers overloaded_error).
func TestMidStreamError(t *testing.T) {
	body := messageStart(10, 0, 0) + blockStart(0, `{"type":"text","text":""}`) +
		blockDelta(0, `{"type":"text_delta","text":"Hel"}`) +
		sse("error", `{"type":"error","error":{"type":"api_error","message":"Internal server error"},"request_id":"req_9"}`)
	srv := sseServer(t, []byte(body), true)
	_, msg := ask(t, Config{BaseURL: srv.URL})
	e := msg.Error
	if msg.StopReason != agent.StopReasonError || e == nil || e.Kind != agent.ErrorStream ||
		e.Type != "api_error" || e.Message != "Internal server error" || e.Status != 0 {
		t.Fatalf("stop %s error %+v", msg.StopReason, e)
	}
	if msg.TextContent() != "Hel" || !strings.Contains(e.Body, "req_9") {
		t.Errorf("text %q body %q", msg.TextContent(), e.Body)
	}
}

// TestMalformedChunk checks that a chunk that is not JSON ends the stream
// with a clear error and keeps what came before.
func TestMalformedChunk(t *testing.T) {
	body := messageStart(10, 0, 0) + textBlock(0, "Hi") +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"oops\"\n\n"
	srv := sseServer(t, []byte(body), true)
	_, msg := ask(t, Config{BaseURL: srv.URL})
	e := msg.Error
	if msg.StopReason != agent.StopReasonError || e == nil || e.Kind != agent.ErrorMalformed {
		t.Fatalf("stop %s error %+v", msg.StopReason, e)
	}
	if !strings.Contains(e.Message, "cannot parse the stream from anthropic") || !strings.Contains(e.Body, "oops") {
		t.Errorf("error = %+v", e)
	}
	if msg.TextContent() != "Hi" {
		t.Errorf("text = %q", msg.TextContent())
	}
}

// stallingServer sends head, then nothing until the client goes away, which
// it reports on the returned channel.
func stallingServer(t *testing.T, head string, beforeHeaders bool) (*httptest.Server, <-chan struct{}) {
	gone, stop := make(chan struct{}), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Read the request first: the server notices a client going away
		// only once it reads the connection again.
		_, _ = io.Copy(io.Discard, r.Body)
		if !beforeHeaders {
			writeSSE(w, []byte(head), false)
		}
		select {
		case <-r.Context().Done():
			close(gone)
		case <-stop: // the test failed; let Close return
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(stop) }) // runs before srv.Close
	return srv, gone
}

// TestIdleWatchdog checks that a stream that stalls fails with a timeout
// (stopReason error, not aborted) and that the request is cancelled.
func TestIdleWatchdog(t *testing.T) {
	for _, beforeHeaders := range []bool{false, true} {
		t.Run(fmt.Sprintf("before headers %v", beforeHeaders), func(t *testing.T) {
			srv, gone := stallingServer(t, messageStart(10, 0, 0)+blockStart(0, `{"type":"text","text":"Hel"}`), beforeHeaders)
			// No response-header timeout: the watchdog alone must fire.
			_, msg := ask(t, Config{BaseURL: srv.URL, IdleTimeout: 100 * time.Millisecond, HTTPClient: &http.Client{}})
			e := msg.Error
			if msg.StopReason != agent.StopReasonError || e == nil || e.Kind != agent.ErrorTimeout ||
				e.Message != "no data from anthropic for 100ms (idle timeout)" {
				t.Fatalf("stop %s error %+v", msg.StopReason, e)
			}
			if want := map[bool]string{false: "Hel", true: ""}[beforeHeaders]; msg.TextContent() != want {
				t.Errorf("text = %q, want %q", msg.TextContent(), want)
			}
			select {
			case <-gone:
			case <-time.After(5 * time.Second):
				t.Fatal("the server never saw the request cancelled")
			}
		})
	}
}

// TestIdleWatchdogResets checks that a slow but steady stream is not cut:
// the gaps are shorter than the idle window, the whole stream is longer.
func TestIdleWatchdogResets(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeSSE(w, nil, false)
		_, _ = w.Write([]byte(messageStart(10, 0, 0) + blockStart(0, `{"type":"text","text":""}`)))
		for range 10 {
			time.Sleep(30 * time.Millisecond)
			_, _ = w.Write([]byte(blockDelta(0, `{"type":"text_delta","text":"."}`)))
			w.(http.Flusher).Flush()
		}
		_, _ = w.Write([]byte(blockStop(0) + messageEnd("end_turn", 10)))
	}))
	defer srv.Close()
	_, msg := ask(t, Config{BaseURL: srv.URL, IdleTimeout: 200 * time.Millisecond})
	if msg.StopReason != agent.StopReasonStop || msg.TextContent() != ".........." {
		t.Fatalf("stop %s text %q error %+v", msg.StopReason, msg.TextContent(), msg.Error)
	}
}

// TestAbortMidStream checks that cancelling the caller's context cancels the
// HTTP request at once and ends with stopReason aborted.
func TestAbortMidStream(t *testing.T) {
	srv, gone := stallingServer(t, messageStart(10, 0, 0)+blockStart(0, `{"type":"text","text":"Hel"}`), false)
	p := newProvider(t, Config{BaseURL: srv.URL})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream := p.Stream(ctx, testModel, simpleContext, agent.StreamOptions{})
	for ev := range stream.Events() {
		if ev.Type == agent.EventTextDelta {
			break
		}
	}
	cancel()
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		t.Fatal("the server never saw the request cancelled")
	}
	_, msg := drain(t, stream)
	if msg.StopReason != agent.StopReasonAborted || msg.TextContent() != "Hel" {
		t.Fatalf("stop %s text %q error %+v", msg.StopReason, msg.TextContent(), msg.Error)
	}
}

// TestNetworkError checks a refused connection.
func TestNetworkError(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	_, msg := ask(t, Config{BaseURL: url})
	if e := msg.Error; msg.StopReason != agent.StopReasonError || e == nil || e.Kind != agent.ErrorNetwork ||
		!strings.Contains(e.Message, "refused") {
		t.Fatalf("stop %s error %+v", msg.StopReason, msg.Error)
	}
}
