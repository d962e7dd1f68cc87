package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/runner/headless"
)

// openAIChunk is one chunk of an OpenAI-compatible stream.
func openAIChunk(delta, finish string) string {
	f := "null"
	if finish != "" {
		f = `"` + finish + `"`
	}
	return `data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + f + `}]}` + "\n\n"
}

// TestRetryAfterSetsTheCooldownThroughTheBinary: an OpenAI-compatible
// server answers profile a's key with a 429 saying Retry-After: 120; the run
// completes on profile b, and `steer inspect profiles --json` shows a
// cooling down for at least 120 s, from retry-after.
func TestRetryAfterSetsTheCooldownThroughTheBinary(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "Bearer key-A" {
			w.Header().Set("Retry-After", "120")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"error":{"message":"Rate limit reached for requests","type":"requests","code":"rate_limit_exceeded"}}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, openAIChunk(`{"role":"assistant","content":"answered"}`, "")+openAIChunk(`{}`, "stop")+"data: [DONE]\n\n")
	}))
	defer ts.Close()
	s := newSandbox(t)
	s.setenv("KEY_A", "key-A")
	s.setenv("KEY_B", "key-B")
	cfg := writeFile(t, "config.json", `{"providers": {"local": {"api": "openai-chat", "baseURL": "`+ts.URL+`/v1",
		"profiles": [{"id": "local:a", "apiKeyEnv": "KEY_A"}, {"id": "local:b", "apiKeyEnv": "KEY_B"}],
		"models": [{"id": "m"}]}}}`)
	failedAt := time.Now()
	code, stdout, stderr := s.run(nil, "--config", cfg, "--model", "local/m", "run", "--json", "hello")
	if code != headless.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if f := ofType(jsonLines(t, stdout), "failover"); len(f) != 1 || f[0]["reason"] != "rate_limit" || f[0]["to"] != "local:b" {
		t.Fatalf("failover events %v", f)
	}

	code, stdout, stderr = s.run(nil, "--config", cfg, "inspect", "profiles", "--json")
	if code != headless.ExitOK {
		t.Fatalf("inspect: exit %d: %s", code, stderr)
	}
	var profiles []struct {
		ID, State   string
		Until       *time.Time
		UntilSource *string
		Reason      *string
	}
	if err := json.Unmarshal([]byte(stdout), &profiles); err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	a := profiles[0]
	if a.ID != "local:a" || a.State != "cooldown" || a.Reason == nil || *a.Reason != "rate_limit" ||
		a.UntilSource == nil || *a.UntilSource != "retry-after" || a.Until == nil ||
		a.Until.Sub(failedAt) < 120*time.Second || a.Until.Sub(failedAt) > 130*time.Second {
		t.Fatalf("local:a = %+v (%s), want a cooldown of at least 120 s from retry-after", a, stdout)
	}
	if b := profiles[1]; b.ID != "local:b" || b.State != "available" || b.UntilSource != nil {
		t.Fatalf("local:b = %+v", b)
	}
}

// timedLines reads steer's stdout line by line, each with the time since
// start it arrived at.
type timedLine struct {
	at   time.Duration
	line map[string]any
}

func readTimed(t *testing.T, r io.Reader, start time.Time) <-chan timedLine {
	t.Helper()
	out := make(chan timedLine, 256)
	go func() {
		defer close(out)
		for l := range lines(r) {
			var v map[string]any
			if json.Unmarshal([]byte(l), &v) == nil {
				out <- timedLine{time.Since(start), v}
			}
		}
	}()
	return out
}

// TestStallWithPingsThroughTheBinary: on --scenario stall-with-pings with a
// 2 s window, the stalled response (a keep-alive every second, nothing
// else) is cut as a timeout within the window + 2 s; the one retry of a
// stall stalls too, the run falls back to scripted/tiny and completes; the
// whole run ends well within 15 s. Without a fallback the run ends with the
// timeout error.
func TestStallWithPingsThroughTheBinary(t *testing.T) {
	slow(t)
	const window = 2 * time.Second
	for _, fallback := range []bool{true, false} {
		t.Run(fmt.Sprintf("fallback %v", fallback), func(t *testing.T) {
			s := newSandbox(t)
			fallbacks := `[]`
			if fallback {
				fallbacks = `["scripted/tiny"]`
			}
			// No cooldown wait: the timeouts' windows would be waited
			// for once (TestCooldownWait covers that).
			cfg := writeFile(t, "config.json", `{"fallbacks": `+fallbacks+`, "auth": {"maxCooldownWaitSeconds": 0},
				"providers": {"scripted": {"api": "scripted", "timeoutSeconds": 2}}}`)
			cmd := s.command("--config", cfg, "--scenario", "stall-with-pings", "--pace", "0", "run", "--json", "hello")
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			start := time.Now()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var firstCut, failover time.Duration
			var ends []map[string]any
			for tl := range readTimed(t, stdout, start) {
				switch tl.line["type"] {
				case "attempt_end":
					ends = append(ends, tl.line)
					if tl.line["reason"] == "timeout" && firstCut == 0 {
						firstCut = tl.at
					}
				case "failover":
					failover = tl.at
				}
			}
			code := exitCode(t, cmd, 20*time.Second)
			took := time.Since(start)
			t.Logf("window %v: first cut at %v, failover at %v, exit %d after %v", window, firstCut, failover, code, took)
			if firstCut == 0 || firstCut > window+2*time.Second {
				t.Fatalf("the stalled response was cut after %v, want within %v (attempts %v)", firstCut, window+2*time.Second, ends)
			}
			if len(ends) < 2 || ends[0]["decision"] != "continue_normal" || ends[1]["reason"] != "timeout" {
				t.Fatalf("attempts %v, want a timeout retried once on the same profile", ends)
			}
			if took > 15*time.Second {
				t.Fatalf("the run took %v", took)
			}
			if fallback {
				if code != headless.ExitOK || failover == 0 || failover > 2*window+2*time.Second {
					t.Fatalf("exit %d, failover at %v: %s", code, failover, stderr.String())
				}
				return
			}
			if code != headless.ExitFailed || !strings.Contains(stderr.String(), "idle timeout") || took > 2*window+4*time.Second {
				t.Fatalf("exit %d after %v, stderr %q; want the timeout error", code, took, stderr.String())
			}
		})
	}
}

// TestKeepAlivesDoNotHoldAStalledServer: a real OpenAI-compatible server
// whose model "stuck" starts its answer, then sends only SSE comments and
// empty chunks; with a 1 s window the stream is cut, classified timeout,
// retried once, and the run falls back to model "fine" of the same server.
func TestKeepAlivesDoNotHoldAStalledServer(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		if !strings.Contains(string(body), `"model":"stuck"`) {
			fmt.Fprint(w, openAIChunk(`{"role":"assistant","content":"fine here"}`, "")+openAIChunk(`{}`, "stop")+"data: [DONE]\n\n")
			return
		}
		fmt.Fprint(w, openAIChunk(`{"role":"assistant","content":""}`, ""))
		w.(http.Flusher).Flush()
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case <-r.Context().Done():
				return
			case <-tick.C:
				keepAlive := ": OPENROUTER PROCESSING\n\n"
				if i%2 == 1 {
					keepAlive = `data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[]}` + "\n\n"
				}
				if _, err := io.WriteString(w, keepAlive); err != nil {
					return
				}
				w.(http.Flusher).Flush()
			}
		}
	}))
	defer ts.Close()
	s := newSandbox(t)
	cfg := writeFile(t, "config.json", `{"fallbacks": ["local/fine"], "providers": {"local": {"api": "openai-chat",
		"baseURL": "`+ts.URL+`/v1", "timeoutSeconds": 1, "profiles": [{"id": "local:default", "apiKey": "unused"}],
		"models": [{"id": "stuck"}, {"id": "fine"}]}}}`)
	start := time.Now()
	code, stdout, stderr := s.run(nil, "--config", cfg, "--model", "local/stuck", "run", "--json", "hello")
	took := time.Since(start)
	t.Logf("window 1s: the run took %v", took)
	if code != headless.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := jsonLines(t, stdout)
	var got []string
	for _, e := range ofType(lines, "attempt_end") {
		got = append(got, fmt.Sprint(e["model"], " ", e["reason"], " ", e["decision"]))
	}
	want := []string{"local/stuck timeout continue_normal", "local/stuck timeout fallback_model", "local/fine <nil> <nil>"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("attempts %q, want %q", got, want)
	}
	retry := ofType(lines, "auto_retry_start")
	if len(retry) != 1 || !strings.Contains(fmt.Sprint(retry[0]["errorMessage"]), "keep-alives did not count") {
		t.Fatalf("auto_retry_start %v", retry)
	}
	if took > 10*time.Second {
		t.Fatalf("the run took %v with a 1 s window", took)
	}
}
