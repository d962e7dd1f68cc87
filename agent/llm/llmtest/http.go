package llmtest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// RunHTTP checks what an HTTP provider does with its server: failure
// statuses, error events, malformed streams, a body that is not a stream at
// all, the idle watchdog, aborts, servers it cannot connect to, requests it
// cannot build, and its credentials.
func RunHTTP(t *testing.T, h HTTPHarness) {
	tests := []struct {
		name string
		run  func(t *testing.T, h HTTPHarness)
	}{
		{"status", httpStatuses},
		{"mid-stream error", httpMidStream},
		{"error event at the end without its blank line", httpUnterminatedError},
		{"malformed event", httpMalformed},
		{"idle watchdog", httpWatchdog},
		{"idle watchdog resets", httpWatchdogResets},
		{"keep-alives do not reset the idle watchdog", httpWatchdogKeepAlives},
		{"abort cancels the request", httpAbort},
		{"not an event stream", httpNotEventStream},
		{"cannot connect", httpCannotConnect},
		{"request that cannot be built", httpBadRequest},
		{"key not in errors", httpKeyNotInErrors},
		{"environment key not sent", httpEnvironment},
		{"bad config rejected", httpBadConfig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, h) })
	}
}

// httpStatuses: a failure status keeps the status, the provider's type and
// code, its message and a bounded excerpt of the body, and nothing streams
// before it.
func httpStatuses(t *testing.T, h HTTPHarness) {
	huge := h.ErrorJSON("server_error", "", strings.Repeat("x", 10_000))
	cases := slices.Concat(h.Errors, []HTTPErrorCase{
		{Name: "502 html", Status: 502, Body: "<html>\n<body>Bad Gateway</body></html>", Message: "<html>",
			Excerpt: "Bad Gateway"},
		{Name: "503 empty body", Status: 503, Message: "Service Unavailable"},
		{Name: "500 huge body", Status: 500, Body: huge, Type: "server_error", Message: strings.Repeat("x", agent.MaxErrorBody)},
	})
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			srv := StatusServer(t, tt.Status, tt.Body)
			events, msg := h.ask(t, Conn{URL: srv.URL})
			if len(events) != 1 || events[0].Type != agent.EventError {
				t.Errorf("events = %v, want one error", Types(events))
			}
			e := msg.Error
			if msg.StopReason != agent.StopReasonError || e == nil {
				t.Fatalf("stop %s error %+v", msg.StopReason, e)
			}
			if e.Kind != agent.ErrorHTTP || e.Status != tt.Status || e.Type != tt.Type || e.Code != tt.Code || e.Message != tt.Message {
				t.Errorf("error = %s/%d/%q/%q/%q, want http/%d/%q/%q/%q",
					e.Kind, e.Status, e.Type, e.Code, e.Message, tt.Status, tt.Type, tt.Code, tt.Message)
			}
			excerpt := tt.Excerpt
			if excerpt == "" {
				excerpt = tt.Body[:min(len(tt.Body), 100)]
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

// httpMidStream: an error event after content has streamed is a stream
// error that keeps the text and the event.
func httpMidStream(t *testing.T, h HTTPHarness) {
	want := h.MidStream
	srv := SSEServer(t, []byte(h.Wire.Head+h.Wire.Text("Hel")+want.Event), true)
	_, msg := h.ask(t, Conn{URL: srv.URL})
	e := msg.Error
	if msg.StopReason != agent.StopReasonError || e == nil || e.Kind != agent.ErrorStream ||
		e.Type != want.Type || e.Code != want.Code || e.Message != want.Message || e.Status != 0 {
		t.Fatalf("stop %s error %+v", msg.StopReason, e)
	}
	if msg.TextContent() != "Hel" || !strings.Contains(e.Body, want.Excerpt) {
		t.Errorf("text %q body %q", msg.TextContent(), e.Body)
	}
}

// httpUnterminatedError: an error event that the server ends the stream
// with, without the blank line that should close it (it writes the event and
// closes the connection), still surfaces as the provider's error, however
// much of the terminator is missing, and also when the connection drops
// without ending the chunked body.
func httpUnterminatedError(t *testing.T, h HTTPHarness) {
	want := h.MidStream
	body := h.Wire.Head + h.Wire.Text("Hel") + strings.TrimRight(want.Event, "\r\n")
	servers := map[string]func() *httptest.Server{
		"ending \"\"":        func() *httptest.Server { return SSEServer(t, []byte(body), true) },
		"ending \"\\n\"":     func() *httptest.Server { return SSEServer(t, []byte(body+"\n"), true) },
		"ending \"\\r\\n\"":  func() *httptest.Server { return SSEServer(t, []byte(body+"\r\n"), true) },
		"connection dropped": func() *httptest.Server { return droppingServer(t, body) },
	}
	for name, server := range servers {
		t.Run(name, func(t *testing.T) {
			_, msg := h.ask(t, Conn{URL: server().URL})
			e := msg.Error
			if msg.StopReason != agent.StopReasonError || e == nil || e.Kind != agent.ErrorStream ||
				e.Type != want.Type || e.Code != want.Code || e.Message != want.Message {
				t.Fatalf("stop %s error %+v, want a stream error %q/%q/%q", msg.StopReason, e, want.Type, want.Code, want.Message)
			}
			if msg.TextContent() != "Hel" || !strings.Contains(e.Body, want.Excerpt) {
				t.Errorf("text %q body %q", msg.TextContent(), e.Body)
			}
		})
	}
}

// httpMalformed: an event that is not JSON ends the stream with a clear
// error and keeps what came before.
func httpMalformed(t *testing.T, h HTTPHarness) {
	srv := SSEServer(t, []byte(h.Wire.Head+h.Wire.Text("Hi")+h.BadEvent), true)
	_, msg := h.ask(t, Conn{URL: srv.URL})
	e := msg.Error
	if msg.StopReason != agent.StopReasonError || e == nil || e.Kind != agent.ErrorMalformed {
		t.Fatalf("stop %s error %+v", msg.StopReason, e)
	}
	if !strings.Contains(e.Message, "cannot parse the stream from "+h.Model.Provider) || !strings.Contains(e.Body, "oops") {
		t.Errorf("error = %+v", e)
	}
	if msg.TextContent() != "Hi" {
		t.Errorf("text = %q", msg.TextContent())
	}
}

// httpWatchdog: a stream that stalls, before or after the headers, fails
// with a timeout (stopReason error, not aborted) and the request is
// cancelled.
func httpWatchdog(t *testing.T, h HTTPHarness) {
	for _, beforeHeaders := range []bool{false, true} {
		t.Run(fmt.Sprintf("before headers %v", beforeHeaders), func(t *testing.T) {
			srv, gone := StallingServer(t, h.Wire.Head+h.Wire.Text("Hel"), beforeHeaders)
			// No response-header timeout: the watchdog alone must fire.
			_, msg := h.ask(t, Conn{URL: srv.URL, IdleTimeout: 100 * time.Millisecond, HTTPClient: &http.Client{}})
			e := msg.Error
			if msg.StopReason != agent.StopReasonError || e == nil || e.Kind != agent.ErrorTimeout ||
				e.Message != "no data from "+h.Model.Provider+" for 100ms (idle timeout)" {
				t.Fatalf("stop %s error %+v", msg.StopReason, e)
			}
			if want := map[bool]string{false: "Hel", true: ""}[beforeHeaders]; msg.TextContent() != want {
				t.Errorf("text = %q, want %q", msg.TextContent(), want)
			}
			waitGone(t, gone)
		})
	}
}

// httpWatchdogResets: a slow but steady stream is not cut: the gaps are
// shorter than the idle window, the whole stream is longer.
func httpWatchdogResets(t *testing.T, h HTTPHarness) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		WriteSSE(w, []byte(h.Wire.Head), false)
		for range 10 {
			time.Sleep(30 * time.Millisecond)
			_, _ = w.Write([]byte(h.Wire.Text(".")))
			w.(http.Flusher).Flush()
		}
		_, _ = w.Write([]byte(h.Wire.Tail))
	}))
	defer srv.Close()
	_, msg := h.ask(t, Conn{URL: srv.URL, IdleTimeout: 200 * time.Millisecond})
	if msg.StopReason != agent.StopReasonStop || msg.TextContent() != ".........." {
		t.Fatalf("stop %s text %q error %+v", msg.StopReason, msg.TextContent(), msg.Error)
	}
}

// httpWatchdogKeepAlives: a server that has stalled but keeps sending
// keep-alives (SSE comments, and the API's own ping event) is silent: the
// watchdog counts progress, not bytes, and fails the response.
func httpWatchdogKeepAlives(t *testing.T, h HTTPHarness) {
	keepAlive := ": keep-alive\n\n" + h.KeepAlive
	gone := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		WriteSSE(w, []byte(h.Wire.Head+h.Wire.Text("Hel")), false)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-r.Context().Done():
				close(gone)
				return
			case <-tick.C:
				if _, err := w.Write([]byte(keepAlive)); err != nil {
					close(gone)
					return
				}
				w.(http.Flusher).Flush()
			}
		}
	}))
	defer srv.Close()
	_, msg := drainWithin(t, 5*time.Second, h.stream(t, Conn{URL: srv.URL, IdleTimeout: 150 * time.Millisecond})(
		context.Background(), h.Model, Prompt, agent.StreamOptions{}))
	e := msg.Error
	if msg.StopReason != agent.StopReasonError || e == nil || e.Kind != agent.ErrorTimeout || msg.TextContent() != "Hel" {
		t.Fatalf("stop %s text %q error %+v", msg.StopReason, msg.TextContent(), e)
	}
	waitGone(t, gone)
}

// httpAbort: cancelling the caller's context cancels the HTTP request at
// once and ends with stopReason aborted, keeping the text so far.
func httpAbort(t *testing.T, h HTTPHarness) {
	srv, gone := StallingServer(t, h.Wire.Head+h.Wire.Text("Hel"), false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream := h.stream(t, Conn{URL: srv.URL})(ctx, h.Model, Prompt, agent.StreamOptions{})
	untilText(t, stream)
	cancel()
	waitGone(t, gone)
	_, msg := Drain(t, stream)
	if msg.StopReason != agent.StopReasonAborted || msg.TextContent() != "Hel" {
		t.Fatalf("stop %s text %q error %+v", msg.StopReason, msg.TextContent(), msg.Error)
	}
}

func waitGone(t *testing.T, gone <-chan struct{}) {
	t.Helper()
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		t.Fatal("the server never saw the request cancelled")
	}
}

// httpBadRequest: a request the provider cannot build (a tool schema that
// is not an object) fails as malformed.
func httpBadRequest(t *testing.T, h HTTPHarness) {
	llm := agent.LLMContext{Tools: []agent.ToolSpec{{Name: "bad", Parameters: json.RawMessage(`[1,2]`)}}}
	srv := SSEServer(t, []byte(h.Wire.Reply("ok")), false)
	_, msg := Drain(t, h.stream(t, Conn{URL: srv.URL})(context.Background(), h.Model, llm, agent.StreamOptions{}))
	if msg.Error == nil || msg.Error.Kind != agent.ErrorMalformed {
		t.Fatalf("error = %+v", msg.Error)
	}
}
