package llmtest

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
)

// These cases check that a provider names the real cause of the failures a
// wrong base URL produces — a page or a whole JSON answer instead of a
// stream, a server that is not there — in its error's words and in the
// reason failover gives them: the classifier reads what the provider wrote.

// typedServer answers every request with status 200, contentType and body.
func typedServer(t testing.TB, contentType, body string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		}
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// wholeAnswer is what a server that ignores "stream": true sends.
const wholeAnswer = `{"id":"chatcmpl-1","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}]}`

// httpNotEventStream: a 200 whose body is not an event stream fails as
// malformed with a message that says what came back and to check baseURL
// (the page's title when it has one); a 200 JSON error object is that error.
func httpNotEventStream(t *testing.T, h HTTPHarness) {
	for _, c := range []struct {
		name, contentType, body string
		kind                    agent.ErrorKind
		says                    []string
		want                    string // the reason's code
	}{
		{"html page", "text/html; charset=utf-8",
			"<!DOCTYPE html>\n<html><head><title>Welcome to nginx!</title></head><body>502 Bad Gateway</body></html>\n",
			agent.ErrorMalformed, []string{`answered with an HTML page ("Welcome to nginx!"), not an event stream: check baseURL`}, "malformed"},
		{"html page served as text/plain", "text/plain", "<html><body>Sign in to the Wi-Fi</body></html>",
			agent.ErrorMalformed, []string{"answered with an HTML page, not an event stream"}, "malformed"},
		{"whole json answer", "application/json", wholeAnswer,
			agent.ErrorMalformed, []string{"answered with a JSON document, not an event stream: check baseURL"}, "malformed"},
		{"plain text", "text/plain", "Hello from the dev server\n",
			agent.ErrorMalformed, []string{`answered with a text/plain body ("Hello from the dev server"), not an event stream`}, "malformed"},
		{"json error object with 200", "application/json",
			`{"error":{"message":"Invalid API key provided","type":"authentication_error"}}`,
			agent.ErrorStream, []string{"Invalid API key provided"}, "auth"},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := typedServer(t, c.contentType, c.body)
			events, msg := h.ask(t, Conn{URL: srv.URL})
			e := msg.Error
			if types := Types(events); len(types) > 2 || types[len(types)-1] != agent.EventError ||
				msg.StopReason != agent.StopReasonError || e == nil || e.Kind != c.kind {
				t.Fatalf("events %v, stop %s, error %+v", types, msg.StopReason, e)
			}
			for _, s := range c.says {
				if !strings.Contains(e.Message, s) {
					t.Errorf("message %q does not say %q", e.Message, s)
				}
			}
			if c.kind == agent.ErrorMalformed && !strings.Contains(e.Message, "the server at "+srv.URL+"/") {
				t.Errorf("message %q does not name the URL asked", e.Message)
			}
			if got := h.classify(t, e); got != c.want {
				t.Errorf("ClassifyError = %s, want %s (error %+v)", got, c.want, e)
			}
		})
	}
}

// httpCannotConnect: a closed port and a host name that cannot resolve are
// network errors whose message says so and what to check, and failover
// reads them as network, never as a timeout.
func httpCannotConnect(t *testing.T, h HTTPHarness) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	for _, c := range []struct{ name, url, says string }{
		{"closed port", closed, "connection refused (nothing is listening there: check baseURL and that the server is running)"},
		{"unresolvable host", "http://nonexistent.invalid", "lookup nonexistent.invalid"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, msg := h.ask(t, Conn{URL: c.url, HTTPClient: &http.Client{Transport: &http.Transport{}}})
			e := msg.Error
			if msg.StopReason != agent.StopReasonError || e == nil || e.Kind != agent.ErrorNetwork {
				t.Fatalf("stop %s error %+v", msg.StopReason, e)
			}
			if !strings.Contains(e.Message, "could not connect to "+h.Model.Provider) || !strings.Contains(e.Message, c.says) {
				t.Errorf("message %q does not say %q", e.Message, c.says)
			}
			if got := h.classify(t, e); got != "network" {
				t.Errorf("ClassifyError = %s, want network", got)
			}
		})
	}
}

func (h HTTPHarness) classify(t *testing.T, e *agent.ProviderError) string {
	t.Helper()
	if h.Classify == nil {
		t.Fatal("the harness has no Classify")
	}
	return h.Classify(e)
}
