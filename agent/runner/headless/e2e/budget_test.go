package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/steer-tui/steer/agent/runner/headless"
)

// pricedServer is an OpenAI-compatible server whose every answer is billed
// for a prompt token per 4 bytes of the request (as steer estimates it)
// and 1,000 completion tokens: about $0.0045 at the $1/$2 per million
// tokens of pricedConfig, the system prompt and tools being most of it. With calls set, each answer calls bash
// (echo) instead of answering in text, so one run makes many requests.
type pricedServer struct {
	calls bool
	mu    sync.Mutex
	n     int
}

func (p *pricedServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	p.mu.Lock()
	p.n++
	n := p.n
	p.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	prompt := len(body) / bytesPerToken
	usage := fmt.Sprintf(`data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[],"usage":{"prompt_tokens":%d,"completion_tokens":1000,"total_tokens":%d}}`,
		prompt, prompt+1000) + "\n\n"
	if p.calls {
		args, _ := json.Marshal(map[string]string{"command": "echo step"})
		call, _ := json.Marshal(map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{
			"index": 0, "id": fmt.Sprintf("call_%d", n), "type": "function",
			"function": map[string]any{"name": "bash", "arguments": string(args)}}}})
		fmt.Fprint(w, openAIChunk(string(call), "")+openAIChunk(`{}`, "tool_calls")+usage+"data: [DONE]\n\n")
		return
	}
	fmt.Fprint(w, openAIChunk(fmt.Sprintf(`{"role":"assistant","content":"answer %d"}`, n), "")+openAIChunk(`{}`, "stop")+usage+"data: [DONE]\n\n")
}

func (p *pricedServer) requests() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.n
}

// pricedConfig configures local/priced at url, with budget as the config's
// "budget" section.
func pricedConfig(t *testing.T, url, budget string) string {
	return writeFile(t, "config.json", `{"providers": {"local": {"api": "openai-chat", "baseURL": "`+url+`/v1",
		"models": [{"id": "priced", "contextWindow": 100000, "maxOutput": 4096, "cost": {"input": 1, "output": 2}}]}},
		"budget": `+budget+`}`)
}

// TestSessionBudgetStopsSteerRun: with budget.session $0.012 and answers of
// about $0.0045, two runs of the session answer and the third stops before its
// request: exit 1, the reason on stderr, nothing sent.
func TestSessionBudgetStopsSteerRun(t *testing.T) {
	srv := &pricedServer{}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	s := newSandbox(t)
	cfg := pricedConfig(t, ts.URL, `{"session": 0.012}`)
	for i, prompt := range []string{"one", "two"} {
		args := []string{"--config", cfg, "--model", "local/priced", "run", prompt}
		if i > 0 {
			args = append(args, "--continue")
		}
		if code, _, stderr := s.run(nil, args...); code != headless.ExitOK {
			t.Fatalf("run %q: exit %d: %s", prompt, code, stderr)
		}
	}
	code, stdout, stderr := s.run(nil, "--config", cfg, "--model", "local/priced", "run", "--continue", "three")
	if code != headless.ExitFailed || !strings.Contains(stderr, "budget") || !strings.Contains(stderr, "$0.0120 budget") ||
		!strings.Contains(stderr, "run failed: budget") {
		t.Fatalf("the third run: exit %d, stderr %q, stdout %q; want exit 1 naming the $0.012 budget", code, stderr, stdout)
	}
	if n := srv.requests(); n != 2 {
		t.Fatalf("the server got %d requests, want 2", n)
	}
}

// TestMaxCostStopsARunAndSaysSoInJSON: --max-cost 0.007 lets a run's first
// request (about $0.0045) through and stops the one after its tool call; --json
// carries the budget event.
func TestMaxCostStopsARunAndSaysSoInJSON(t *testing.T) {
	srv := &pricedServer{calls: true}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	s := newSandbox(t)
	cfg := pricedConfig(t, ts.URL, `{}`)
	code, stdout, stderr := s.run(nil, "--config", cfg, "--model", "local/priced", "run", "--json", "--max-cost", "0.007", "go")
	if code != headless.ExitFailed {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	if n := srv.requests(); n != 1 {
		t.Fatalf("the server got %d requests, want 1", n)
	}
	var stop map[string]any
	for _, line := range jsonLines(t, stdout) {
		if line["type"] == "budget" {
			stop = line
		}
	}
	if stop == nil || stop["stopped"] != true || stop["scope"] != "run" || stop["unit"] != "usd" || stop["limit"] != 0.007 {
		t.Fatalf("budget event %v, want a stop of the run at $0.007", stop)
	}
}
