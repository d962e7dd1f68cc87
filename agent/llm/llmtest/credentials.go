package llmtest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// httpKeyNotInErrors: a server echoing the key does not get it into the
// error's message, body, code or rendering.
func httpKeyNotInErrors(t *testing.T, h HTTPHarness) {
	const key = "sk-very-secret-key-0123456789"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, h.ErrorJSON("authentication_error", key, "Incorrect API key provided: "+h.Credentials(r)))
	}))
	defer srv.Close()
	_, msg := h.ask(t, Conn{URL: srv.URL, APIKey: key})
	if msg.Error == nil || msg.Error.Status != http.StatusUnauthorized {
		t.Fatalf("error = %+v", msg.Error)
	}
	for _, s := range []string{msg.ErrorMessage, msg.Error.Message, msg.Error.Body, msg.Error.Code,
		fmt.Sprintf("%+v", *msg.Error)} {
		if strings.Contains(s, key) {
			t.Errorf("the key leaked into %q", s)
		}
	}
	if !strings.Contains(msg.Error.Message, "[redacted]") {
		t.Errorf("message = %q, want the key redacted", msg.Error.Message)
	}
}

// httpEnvironment: the SDK's environment variables never reach the
// configured server: the key comes from the Conn or the request's
// StreamOptions only.
func httpEnvironment(t *testing.T, h HTTPHarness) {
	for k, v := range h.Env {
		t.Setenv(k, v)
	}
	var mu sync.Mutex
	var creds string
	var headers http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		creds, headers = h.Credentials(r), r.Header.Clone()
		mu.Unlock()
		WriteSSE(w, []byte(h.Wire.Reply("ok")), false)
	}))
	t.Cleanup(srv.Close)
	tests := []struct {
		name   string
		cfgKey string
		optKey string
		want   string
	}{
		{"config key", "sk-config-1111111111", "", "sk-config-1111111111"},
		{"no key at all", "", "", ""},
		{"profile key overrides", "sk-config-1111111111", "sk-profile-2222222222", "sk-profile-2222222222"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fn := h.stream(t, Conn{URL: srv.URL, APIKey: tt.cfgKey})
			_, msg := Drain(t, fn(context.Background(), h.Model, Prompt, agent.StreamOptions{APIKey: tt.optKey}))
			if msg.StopReason != agent.StopReasonStop {
				t.Fatalf("stop %s error %+v", msg.StopReason, msg.Error)
			}
			mu.Lock()
			defer mu.Unlock()
			if creds != tt.want {
				t.Errorf("credentials sent = %q, want %q", creds, tt.want)
			}
			for name, values := range headers {
				for _, v := range h.Env {
					if strings.Contains(strings.Join(values, " "), v) {
						t.Errorf("header %s = %q carries an environment value", name, values)
					}
				}
			}
		})
	}
}

// httpBadConfig: the constructor rejects a base URL that is not http(s),
// without echoing a password or the key, and a client with a Timeout.
func httpBadConfig(t *testing.T, h HTTPHarness) {
	const key = "sk-secret-abcdefgh"
	for _, base := range []string{"ftp://user:hunter22@example.com", "not a url", "http://"} {
		_, err := h.Open(Conn{URL: base, APIKey: key})
		if err == nil {
			t.Errorf("Open(%q) succeeded", base)
			continue
		}
		if strings.Contains(err.Error(), "hunter22") || strings.Contains(err.Error(), key) {
			t.Errorf("Open(%q) = %v, leaks a secret", base, err)
		}
	}
	if _, err := h.Open(Conn{HTTPClient: &http.Client{Timeout: time.Minute}}); err == nil {
		t.Error("Open accepted an HTTPClient with a Timeout")
	}
}
