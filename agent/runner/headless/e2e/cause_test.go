package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/runner/headless"
)

// localConfig is a config with one OpenAI-compatible provider "local" at
// baseURL, its models, and the fallback chain.
func localConfig(t *testing.T, baseURL string, models []string, fallbacks ...string) string {
	t.Helper()
	var ms []map[string]string
	for _, m := range models {
		ms = append(ms, map[string]string{"id": m})
	}
	cfg := map[string]any{"providers": map[string]any{"local": map[string]any{
		"api": "openai-chat", "baseURL": baseURL, "models": ms}}}
	if len(fallbacks) > 0 {
		cfg["fallbacks"] = fallbacks
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, "config.json", string(b))
}

// pageServer answers every request with status 200, contentType and body.
func pageServer(t *testing.T, contentType, body string) string {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", contentType)
		fmt.Fprint(w, body)
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// closedPort is the URL of a loopback port nothing listens on.
func closedPort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return "http://" + ln.Addr().String()
}

// ledgerRow is one profile of `steer inspect profiles --json`.
type ledgerRow struct {
	ID, State, Model string
	Reason           *string
	Failures         int
}

func inspectProfiles(t *testing.T, s *sandbox, cfg string) map[string]ledgerRow {
	t.Helper()
	code, stdout, stderr := s.run(nil, "--config", cfg, "inspect", "profiles", "--json")
	if code != headless.ExitOK {
		t.Fatalf("inspect: exit %d: %s", code, stderr)
	}
	var rows []ledgerRow
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	out := map[string]ledgerRow{}
	for _, r := range rows {
		out[r.ID] = r
	}
	return out
}

// TestAWrongBaseURLNamesTheCause: through the binary, a base URL that serves
// a web page or a whole JSON answer fails as malformed, one attempt, with
// stderr saying what came back and to check baseURL, even with a fallback
// left; one that nothing listens on fails as network — never a timeout —
// and falls back to the next model when there is one. Neither touches the
// ledger.
func TestAWrongBaseURLNamesTheCause(t *testing.T) {
	page := pageServer(t, "text/html; charset=utf-8", "<!DOCTYPE html><html><head><title>Welcome to nginx!</title></head><body>It works</body></html>")
	answer := pageServer(t, "application/json", `{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"hi"}}]}`)
	closed := closedPort(t)
	cases := []struct {
		name, base string
		fallbacks  []string
		reason     string
		decision   string
		code       int
		says       []string
	}{
		{"html page", page, []string{"scripted/tiny"}, "malformed", "surface_error", headless.ExitFailed,
			[]string{`the server at ` + page + `/v1/chat/completions answered with an HTML page ("Welcome to nginx!"), not an event stream: check baseURL`}},
		{"whole json answer", answer, nil, "malformed", "surface_error", headless.ExitFailed,
			[]string{"answered with a JSON document, not an event stream: check baseURL"}},
		{"closed port", closed, nil, "network", "surface_error", headless.ExitFailed,
			[]string{"could not connect to local", "connection refused", "check baseURL and that the server is running"}},
		{"closed port with a fallback", closed, []string{"scripted/tiny"}, "network", "fallback_model", headless.ExitOK, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSandbox(t)
			cfg := localConfig(t, c.base+"/v1", []string{"m"}, c.fallbacks...)
			code, stdout, stderr := s.run(nil, "--config", cfg, "--model", "local/m", "run", "--json", "hello")
			if code != c.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, c.code, stderr)
			}
			for _, w := range c.says {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q does not say %q", stderr, w)
				}
			}
			lines := jsonLines(t, stdout)
			ends := ofType(lines, "attempt_end")
			if len(ends) == 0 || ends[0]["model"] != "local/m" || ends[0]["reason"] != c.reason || ends[0]["decision"] != c.decision {
				t.Fatalf("attempt_end %v, want the first %s → %s", ends, c.reason, c.decision)
			}
			f := ofType(lines, "failover")
			switch {
			case c.decision == "fallback_model" && (len(f) != 1 || f[0]["reason"] != c.reason || f[0]["to"] != "scripted/tiny"):
				t.Errorf("failover events %v, want one %s to scripted/tiny", f, c.reason)
			case c.decision != "fallback_model" && (len(f) != 0 || len(ends) != 1):
				t.Errorf("%d attempts and failovers %v, want one attempt and none", len(ends), f)
			}
			if p := inspectProfiles(t, s, cfg)["local:default"]; p.State != "available" || p.Failures != 0 {
				t.Errorf("local:default = %+v: a %s failure reached the ledger", p, c.reason)
			}
		})
	}
}

// modelServer is an OpenAI-compatible server that knows only the model
// "m": any other model gets OpenAI's 404 model_not_found.
func modelServer(t *testing.T) string {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Model string }
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "m" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprintf(w, `{"error":{"message":"The model %q does not exist or you do not have access to it.","type":"invalid_request_error","code":"model_not_found"}}`, req.Model)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, openAIChunk(`{"role":"assistant","content":"answered"}`, "")+openAIChunk(`{}`, "stop")+"data: [DONE]\n\n")
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// TestAMistypedModelCoolsOnlyThatModel: a 404 model_not_found on the
// mistyped model falls back to the key's other model, which answers; the
// profile's cooldown is scoped to the mistyped model (inspect shows it as
// "model"), and the next run on the other model uses the same key at once.
func TestAMistypedModelCoolsOnlyThatModel(t *testing.T) {
	s := newSandbox(t)
	cfg := localConfig(t, modelServer(t)+"/v1", []string{"m", "mm-typo"}, "local/m")
	failedAt := time.Now()
	code, stdout, stderr := s.run(nil, "--config", cfg, "--model", "local/mm-typo", "run", "--json", "hello")
	if code != headless.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f := ofType(jsonLines(t, stdout), "failover")
	if len(f) != 1 || f[0]["reason"] != "model_not_found" || f[0]["decision"] != "fallback_model" || f[0]["to"] != "local/m" {
		t.Fatalf("failover events %v", f)
	}

	p := inspectProfiles(t, s, cfg)["local:default"]
	if p.State != "cooldown" || p.Reason == nil || *p.Reason != "model_not_found" || p.Model != "mm-typo" {
		t.Fatalf("local:default = %+v, want a model_not_found cooldown scoped to mm-typo", p)
	}

	code, stdout, stderr = s.run(nil, "--config", cfg, "--model", "local/m", "run", "--json", "again")
	if code != headless.ExitOK {
		t.Fatalf("the key's other model: exit %d: %s", code, stderr)
	}
	lines := jsonLines(t, stdout)
	if starts := ofType(lines, "attempt_start"); len(starts) != 1 || starts[0]["profile"] != "local:default" || starts[0]["model"] != "local/m" {
		t.Fatalf("attempts %v, want one on local:default with local/m", starts)
	}
	if p := inspectProfiles(t, s, cfg)["local:default"]; p.State != "cooldown" || p.Model != "mm-typo" {
		t.Fatalf("local:default = %+v after the second run (%v after the failure): the run did not happen inside the window", p, time.Since(failedAt))
	}
}
