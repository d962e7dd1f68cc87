package e2e

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/steer-tui/steer/agent/runner/headless"
)

// stallingServer is an OpenAI-compatible server whose model big starts its
// answer and then sends nothing (a stall after the response headers, as a
// real provider does), and whose model small answers: a summary for a
// summary request (not steer's system prompt), "ok from small" otherwise. requests lists "MODEL
// main|summary" in order.
type stallingServer struct {
	mu       sync.Mutex
	requests []string
}

func (s *stallingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	model, kind := "small", "main"
	if strings.Contains(string(body), `"model":"big"`) {
		model = "big"
	}
	if !strings.Contains(string(body), `"content":"You are steer`) { // the summariser has a system prompt of its own
		kind = "summary"
		if strings.Contains(string(body), `"tools"`) || !strings.Contains(string(body), "summary") {
			kind = "summary with tools or not asking for a summary" // the issue: no tools, "summary" in those words
		}
	}
	s.mu.Lock()
	s.requests = append(s.requests, model+" "+kind)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	switch {
	case model == "big":
		fmt.Fprint(w, openAIChunk(`{"role":"assistant","content":""}`, ""))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	case kind == "summary":
		fmt.Fprint(w, openAIChunk(`{"role":"assistant","content":"## Goal\nKeep going (the summary)."}`, "")+openAIChunk(`{}`, "stop")+"data: [DONE]\n\n")
	default:
		fmt.Fprint(w, openAIChunk(`{"role":"assistant","content":"ok from small"}`, "")+openAIChunk(`{}`, "stop")+"data: [DONE]\n\n")
	}
}

// TestTimeoutChainThroughTheBinary: a session at ~78 % of big's 20k window,
// big always stalling after the headers, small as the fallback, one
// profile. The run's trace reads compact → retry → fall back: the timeout
// compacts first (the summary times out on big and small writes it: the
// timeout's own cooldown refuses nothing), the retry goes to big again, and
// only its timeout falls back to small, which answers.
func TestTimeoutChainThroughTheBinary(t *testing.T) {
	slow(t)
	srv := &stallingServer{}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	s := newSandbox(t)
	cfg := writeFile(t, "config.json", `{"fallbacks": ["local/small"], "auth": {"maxCooldownWaitSeconds": 0},
		"providers": {"local": {"api": "openai-chat", "baseURL": "`+ts.URL+`/v1", "timeoutSeconds": 1,
		"profiles": [{"id": "local:default", "apiKey": "unused"}],
		"models": [{"id": "big", "contextWindow": 20000, "maxOutput": 1000}, {"id": "small", "contextWindow": 20000, "maxOutput": 1000}]}}}`)
	for i := range 4 {
		prompt := fmt.Sprintf("part %d of the notes: %s", i, strings.Repeat("notes ", 11_900/6))
		args := []string{"--config", cfg, "--model", "local/small", "run", prompt}
		if i > 0 {
			args = []string{"--config", cfg, "--model", "local/small", "--continue", "run", prompt}
		}
		if code, _, stderr := s.run(nil, args...); code != headless.ExitOK {
			t.Fatalf("building the session: exit %d: %s", code, stderr)
		}
	}
	srv.mu.Lock()
	srv.requests = nil
	srv.mu.Unlock()
	code, stdout, stderr := s.run(nil, "--config", cfg, "--model", "local/big", "--continue", "run", "--json", "and now?")
	if code != headless.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var steps []string
	for _, l := range jsonLines(t, stdout) {
		switch l["type"] {
		case "attempt_end":
			steps = append(steps, fmt.Sprintf("attempt %v %v %v", l["model"], l["reason"], l["decision"]))
		case "compaction_start":
			steps = append(steps, fmt.Sprintf("compaction_start %v", l["reason"]))
		case "compaction_end":
			steps = append(steps, fmt.Sprintf("compaction_end %v ok=%v", l["reason"], l["result"] != nil))
		case "failover":
			steps = append(steps, fmt.Sprintf("failover %v → %v", l["from"], l["to"]))
		}
	}
	got := strings.Join(steps, "\n")
	t.Logf("trace:\n%s", got)
	compactStart := strings.Index(got, "attempt local/big timeout continue_normal\ncompaction_start timeout")
	compacted := strings.Index(got, "compaction_end timeout ok=true")
	retry := strings.LastIndex(got, "attempt local/big timeout")
	fellBack := strings.LastIndex(got, "failover local/big → local/small")
	if compactStart != 0 || compacted < 0 || retry < compacted || fellBack < retry {
		t.Fatalf("the trace does not read timeout → compact → retry → fall back:\n%s", got)
	}
	if !strings.Contains(stdout, "ok from small") {
		t.Fatalf("small did not answer: %s", stdout)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	want := []string{"big main", "big summary", "big summary", "small summary", "big main", "small main"}
	if strings.Join(srv.requests, ", ") != strings.Join(want, ", ") {
		t.Fatalf("requests %v, want %v", srv.requests, want)
	}
}
