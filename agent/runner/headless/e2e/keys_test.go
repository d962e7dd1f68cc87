package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/steer-tui/steer/agent/runner/headless"
)

// keyServer is an OpenAI-compatible server that answers by API key: keys in
// limited get a 429, the others a short streamed answer. It records the key
// of every request.
type keyServer struct {
	mu      sync.Mutex
	limited map[string]bool
	seen    []string
}

func (k *keyServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	k.mu.Lock()
	k.seen = append(k.seen, key)
	limited := k.limited[key]
	k.mu.Unlock()
	if limited {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, `{"error":{"message":"Rate limit reached for requests","type":"requests","code":"rate_limit_exceeded"}}`)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	for _, chunk := range []string{
		`{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"answered"}}]}`,
		`{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
	} {
		fmt.Fprintf(w, "data: %s\n\n", chunk)
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

func (k *keyServer) keys() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]string(nil), k.seen...)
}

// TestProfilesRotateOnARealServer: through the openai provider, profile A's
// key is rate limited, the run completes on B, A cools down, and the next
// process sends nothing with A's key; with every key limited the run fails
// naming the rate limit, one attempt_end per attempt.
func TestProfilesRotateOnARealServer(t *testing.T) {
	srv := &keyServer{limited: map[string]bool{"key-A": true}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	s := newSandbox(t)
	s.setenv("KEY_A", "key-A")
	s.setenv("KEY_B", "key-B")
	// No cooldown waits: with every key limited the run fails at once
	// (TestOneRateLimitIsWaitedOut waits).
	cfg := writeFile(t, "config.json", `{"auth": {"maxCooldownWaitSeconds": 0},
		"providers": {"local": {"api": "openai-chat", "baseURL": "`+ts.URL+`/v1",
		"profiles": [{"id": "local:a", "apiKeyEnv": "KEY_A"}, {"id": "local:b", "apiKeyEnv": "KEY_B"}],
		"models": [{"id": "m"}]}}}`)
	run := func(prompt string) (int, []map[string]any, string) {
		code, stdout, stderr := s.run(nil, "--config", cfg, "--model", "local/m", "run", "--json", prompt)
		return code, jsonLines(t, stdout), stderr
	}

	code, lines, stderr := run("hello")
	if code != headless.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f := ofType(lines, "failover")
	if len(f) != 1 || f[0]["reason"] != "rate_limit" || f[0]["decision"] != "rotate_profile" {
		t.Fatalf("failover events %v", f)
	}
	if got := srv.keys(); strings.Join(got, ",") != "key-A,key-B" {
		t.Fatalf("keys sent %v", got)
	}

	code, lines, stderr = run("again")
	if code != headless.ExitOK || len(ofType(lines, "failover")) != 0 {
		t.Fatalf("second run: exit %d (%s), failovers %v", code, stderr, ofType(lines, "failover"))
	}
	if got := srv.keys(); strings.Join(got, ",") != "key-A,key-B,key-B" {
		t.Fatalf("keys sent %v: the cooling profile was tried again", got)
	}

	srv.mu.Lock()
	srv.limited["key-B"] = true
	srv.mu.Unlock()
	code, lines, stderr = run("and again")
	if code != headless.ExitFailed || !strings.Contains(strings.ToLower(stderr), "rate limit") {
		t.Fatalf("all limited: exit %d, stderr %q", code, stderr)
	}
	if n := len(ofType(lines, "attempt_end")); n != len(ofType(lines, "attempt_start")) {
		t.Fatalf("%d attempt_end for %d attempt_start", n, len(ofType(lines, "attempt_start")))
	}
}
