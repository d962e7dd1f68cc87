package openai

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
	huge := `{"error":{"message":"` + strings.Repeat("x", 10_000) + `","type":"server_error"}}`
	tests := []struct {
		name        string
		status      int
		body        string
		typ, code   string
		message     string
		bodyExcerpt string
	}{
		{name: "429 rate limit", status: 429,
			body: `{"error":{"message":"Rate limit reached for gpt-4o in organization org-1 on tokens per min (TPM)","type":"tokens","param":null,"code":"rate_limit_exceeded"}}`,
			typ:  "tokens", code: "rate_limit_exceeded", message: "Rate limit reached for gpt-4o in organization org-1 on tokens per min (TPM)"},
		{name: "429 insufficient quota", status: 429,
			body: `{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`,
			typ:  "insufficient_quota", code: "insufficient_quota", message: "You exceeded your current quota"},
		{name: "401 bad key", status: 401,
			body: `{"error":{"message":"Incorrect API key provided: sk-wrong.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`,
			typ:  "invalid_request_error", code: "invalid_api_key", message: "Incorrect API key provided: sk-wrong."},
		{name: "400 context length", status: 400,
			body: `{"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`,
			typ:  "invalid_request_error", code: "context_length_exceeded",
			message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens."},
		{name: "500 server error", status: 500,
			body: `{"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}`,
			typ:  "server_error", message: "The server had an error while processing your request."},
		{name: "529 overloaded with a numeric code", status: 529,
			body: `{"error":{"message":"Overloaded","code":529}}`, code: "529", message: "Overloaded"},
		{name: "502 html", status: 502, body: "<html>\n<body>Bad Gateway</body></html>", message: "<html>",
			bodyExcerpt: "Bad Gateway"},
		{name: "404 ollama string error", status: 404,
			body:    `{"error":"model \"llama9\" not found, try pulling it first"}`,
			message: `model "llama9" not found, try pulling it first`},
		{name: "400 vllm flat error", status: 400,
			body: `{"object":"error","message":"max_tokens is too large","type":"BadRequestError","param":null,"code":400}`,
			typ:  "BadRequestError", code: "400", message: "max_tokens is too large"},
		{name: "503 empty body", status: 503, body: "", message: "Service Unavailable"},
		{name: "500 huge body", status: 500, body: huge, typ: "server_error", message: strings.Repeat("x", agent.MaxErrorBody)},
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

// TestMidStreamError checks an error event after content has streamed.
func TestMidStreamError(t *testing.T) {
	body := chunk(`{"content":"Hel"}`) +
		`data: {"error":{"message":"upstream overloaded","type":"overloaded_error","code":"overloaded"}}` + "\n\n"
	srv := sseServer(t, []byte(body), true)
	_, msg := ask(t, Config{BaseURL: srv.URL})
	e := msg.Error
	if msg.StopReason != agent.StopReasonError || e == nil || e.Kind != agent.ErrorStream ||
		e.Type != "overloaded_error" || e.Code != "overloaded" || e.Message != "upstream overloaded" || e.Status != 0 {
		t.Fatalf("stop %s error %+v", msg.StopReason, e)
	}
	if msg.TextContent() != "Hel" || !strings.Contains(e.Body, "upstream overloaded") {
		t.Errorf("text %q body %q", msg.TextContent(), e.Body)
	}
}

// TestMalformedChunk checks that a chunk that is not JSON ends the stream
// with a clear error and keeps what came before.
func TestMalformedChunk(t *testing.T) {
	body := chunk(`{"content":"Hi"}`) + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"oops\"\n\n"
	srv := sseServer(t, []byte(body), true)
	_, msg := ask(t, Config{BaseURL: srv.URL})
	e := msg.Error
	if msg.StopReason != agent.StopReasonError || e == nil || e.Kind != agent.ErrorMalformed {
		t.Fatalf("stop %s error %+v", msg.StopReason, e)
	}
	if !strings.Contains(e.Message, "cannot parse the stream from openai") || !strings.Contains(e.Body, "oops") {
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
			srv, gone := stallingServer(t, chunk(`{"content":"Hel"}`), beforeHeaders)
			// No response-header timeout: the watchdog alone must fire.
			_, msg := ask(t, Config{BaseURL: srv.URL, IdleTimeout: 100 * time.Millisecond, HTTPClient: &http.Client{}})
			e := msg.Error
			if msg.StopReason != agent.StopReasonError || e == nil || e.Kind != agent.ErrorTimeout ||
				e.Message != "no data from openai for 100ms (idle timeout)" {
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
		for range 10 {
			time.Sleep(30 * time.Millisecond)
			_, _ = w.Write([]byte(chunk(`{"content":"."}`)))
			w.(http.Flusher).Flush()
		}
		_, _ = w.Write([]byte(finish("stop") + done))
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
	srv, gone := stallingServer(t, chunk(`{"content":"Hel"}`), false)
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
