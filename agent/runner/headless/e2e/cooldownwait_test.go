package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/runner/headless"
)

// limitedOnceServer is an OpenAI-compatible server whose first request gets
// a 429 (with Retry-After retryAfter, when set) and every later one an
// answer; requests counts them.
func limitedOnceServer(t *testing.T, retryAfter string, requests *atomic.Int32) string {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if requests.Add(1) == 1 {
			if retryAfter != "" {
				w.Header().Set("Retry-After", retryAfter)
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"error":{"message":"Rate limit reached for requests","type":"requests","code":"rate_limit_exceeded"}}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, openAIChunk(`{"role":"assistant","content":"answered"}`, "")+openAIChunk(`{}`, "stop")+"data: [DONE]\n\n")
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// cooldownConfig is one OpenAI-compatible provider with one profile and
// model m, and auth.maxCooldownWaitSeconds when wait is not "".
func cooldownConfig(t *testing.T, baseURL, wait string) string {
	auth := ""
	if wait != "" {
		auth = `"auth": {"maxCooldownWaitSeconds": ` + wait + `}, `
	}
	return writeFile(t, "config.json", `{`+auth+`"providers": {"local": {"api": "openai-chat", "baseURL": "`+baseURL+
		`/v1", "profiles": [{"id": "local:a", "apiKey": "k"}], "models": [{"id": "m"}]}}}`)
}

// TestOneRateLimitIsWaitedOut: one 429 without Retry-After on the only key
// is waited out (≈ 30 s, announced as a cooldown auto_retry_start) and the
// run succeeds.
func TestOneRateLimitIsWaitedOut(t *testing.T) {
	if testing.Short() {
		t.Skip("waits a real 30 s cooldown")
	}
	t.Parallel()
	s := newSandbox(t)
	var requests atomic.Int32
	cfg := cooldownConfig(t, limitedOnceServer(t, "", &requests), "")
	began := time.Now()
	code, stdout, stderr := s.run(nil, "--config", cfg, "--model", "local/m", "run", "--json", "hello")
	took := time.Since(began)
	if code != headless.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := jsonLines(t, stdout)
	retries := ofType(lines, "auto_retry_start")
	if len(retries) != 1 || retries[0]["cooldown"] != true || retries[0]["profile"] != "local:a" || retries[0]["reason"] != "rate_limit" {
		t.Fatalf("auto_retry_start events %v", retries)
	}
	if d := retries[0]["delayMs"].(float64); d < 29_000 || d > 30_000 {
		t.Errorf("delayMs %v, want about 30 s", d)
	}
	if took < 29*time.Second || requests.Load() != 2 {
		t.Errorf("took %v with %d requests, want a 30 s wait and 2", took, requests.Load())
	}
	if ends := ofType(lines, "auto_retry_end"); len(ends) != 1 || ends[0]["success"] != true {
		t.Errorf("auto_retry_end events %v", ends)
	}
}

// TestACooldownBeyondTheBoundFailsAtOnce: a Retry-After of 600 s, or a
// bound of 0, fails within seconds, naming until when and how to clear it;
// the prompt's error says so on stderr and in --json.
func TestACooldownBeyondTheBoundFailsAtOnce(t *testing.T) {
	t.Parallel()
	clock := regexp.MustCompile(`until \d\d:\d\d:\d\d, in (\d+m)?\d+s`)
	for _, c := range []struct {
		name, retryAfter, wait, in string
	}{
		{"Retry-After 600", "600", "", "in 10m0s"},
		{"a bound of 0", "", "0", "in 30s"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newSandbox(t)
			var requests atomic.Int32
			cfg := cooldownConfig(t, limitedOnceServer(t, c.retryAfter, &requests), c.wait)
			began := time.Now()
			code, stdout, stderr := s.run(nil, "--config", cfg, "--model", "local/m", "run", "hello")
			if code != headless.ExitFailed || time.Since(began) > 10*time.Second {
				t.Fatalf("exit %d after %v, want 1 within seconds: %s", code, time.Since(began), stderr)
			}
			for _, want := range []string{"local:a cools down for rate_limit", c.in, "/profiles → c", "steer inspect profiles --clear local:a"} {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr does not say %q:\n%s", want, stderr)
				}
			}
			if !clock.MatchString(stderr) {
				t.Errorf("stderr names no local time and duration:\n%s", stderr)
			}
			if n := requests.Load(); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}

			// The next process finds the window in the shared ledger: with
			// Retry-After 600 it fails at once again, without a request.
			code, stdout, stderr = s.run(nil, "--config", cfg, "--model", "local/m", "run", "--json", "again")
			if code != headless.ExitFailed || requests.Load() != 1 {
				t.Fatalf("second run: exit %d after %d requests: %s", code, requests.Load(), stderr)
			}
			var last map[string]any
			for _, l := range ofType(jsonLines(t, stdout), "message_end") {
				last = l
			}
			msg, _ := json.Marshal(last)
			if !strings.Contains(string(msg), "steer inspect profiles --clear local:a") {
				t.Errorf("the --json error does not say how to clear it: %s", msg)
			}

			if code, _, stderr := s.run(nil, "--config", cfg, "inspect", "profiles", "--clear", "local:a"); code != headless.ExitOK {
				t.Fatalf("clear: exit %d: %s", code, stderr)
			}
			if code, _, stderr := s.run(nil, "--config", cfg, "--model", "local/m", "run", "after clearing"); code != headless.ExitOK {
				t.Fatalf("after clearing: exit %d: %s", code, stderr)
			}
		})
	}
}
