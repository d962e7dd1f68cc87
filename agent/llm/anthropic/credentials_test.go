package anthropic

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

// authRecorder answers with a short stream and records the X-Api-Key and
// Authorization headers of each request.
type authRecorder struct {
	mu   sync.Mutex
	seen []string
}

func (a *authRecorder) server(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		a.seen = append(a.seen, strings.TrimSpace(r.Header.Get("X-Api-Key")+" "+r.Header.Get("Authorization")))
		a.mu.Unlock()
		writeSSE(w, []byte(messageStart(1, 0, 0)+textBlock(0, "ok")+messageEnd("end_turn", 1)), false)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func (a *authRecorder) last() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.seen[len(a.seen)-1]
}

// TestEnvironmentKeyNotSent checks that ANTHROPIC_API_KEY (and the SDK's
// other credential sources) never reach the configured server: the key comes
// from Config or the request's StreamOptions only.
func TestEnvironmentKeyNotSent(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-from-the-environment-0000")
	t.Setenv("ANTHROPIC_AUTH_TOKEN", "sk-ant-token-from-the-environment")
	t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:1/not-here")
	var rec authRecorder
	srv := rec.server(t)
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
			p := newProvider(t, Config{BaseURL: srv.URL, APIKey: tt.cfgKey})
			_, msg := drain(t, p.Stream(context.Background(), testModel, simpleContext, agent.StreamOptions{APIKey: tt.optKey}))
			if msg.StopReason != agent.StopReasonStop {
				t.Fatalf("stop %s error %+v", msg.StopReason, msg.Error)
			}
			got := rec.last()
			if strings.Contains(got, "environment") {
				t.Errorf("credentials sent = %q, want only %q", got, tt.want)
			}
			if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
				t.Errorf("credentials sent = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestKeyNotInErrors checks that a server echoing the key does not get it
// into the error's message, body or rendering.
func TestKeyNotInErrors(t *testing.T) {
	const key = "sk-ant-very-secret-key-0123456789"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"type":"error","error":{"type":"authentication_error","message":"invalid key %s%s","details":{"error_code":"%s"}}}`,
			r.Header.Get("X-Api-Key"), strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "), key)
	}))
	defer srv.Close()
	_, msg := ask(t, Config{BaseURL: srv.URL, APIKey: key})
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

// TestNewRejects checks the failures of New: a base URL that is not http(s)
// (without echoing a password in it) and a client with a Timeout.
func TestNewRejects(t *testing.T) {
	for _, base := range []string{"ftp://user:hunter22@example.com", "not a url", "http://"} {
		_, err := New(Config{BaseURL: base, APIKey: "sk-ant-secret-abcdefgh"})
		if err == nil {
			t.Errorf("New(%q) succeeded", base)
			continue
		}
		if strings.Contains(err.Error(), "hunter22") || strings.Contains(err.Error(), "sk-ant-secret") {
			t.Errorf("New(%q) = %v, leaks a secret", base, err)
		}
	}
	if _, err := New(Config{HTTPClient: &http.Client{Timeout: time.Minute}}); err == nil {
		t.Error("New accepted an HTTPClient with a Timeout")
	}
}
