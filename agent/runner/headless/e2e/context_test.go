package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// /context (issue 33) through the binary: after a run on a loopback
// OpenAI-compatible server that read a large file, with tools and an
// AGENTS.md, rpc's inspect {what:"context"} breaks the next request down
// into parts that sum to its total, and that total is within 5 % of the
// input the server reported for the run's last request.

// tokenizedServer is an OpenAI-compatible server that reports the
// prompt_tokens of each request as its tokenizer counts them: its first
// answer calls read on the big file, later ones answer in text.
type tokenizedServer struct {
	mu       sync.Mutex
	requests int
	reported []int
}

func (s *tokenizedServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	prompt, err := loopbackTokens(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.requests++
	n := s.requests
	s.reported = append(s.reported, prompt)
	s.mu.Unlock()
	usage := fmt.Sprintf(`data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[],"usage":{"prompt_tokens":%d,"completion_tokens":5,"total_tokens":%d}}`+"\n\n", prompt, prompt+5)
	w.Header().Set("Content-Type", "text/event-stream")
	if n == 1 {
		args, _ := json.Marshal(map[string]string{"path": bigFileName})
		call, _ := json.Marshal(map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{
			"index": 0, "id": "call_read", "type": "function",
			"function": map[string]any{"name": "read", "arguments": string(args)}}}})
		fmt.Fprint(w, openAIChunk(string(call), "")+openAIChunk(`{}`, "tool_calls")+usage+"data: [DONE]\n\n")
		return
	}
	fmt.Fprint(w, openAIChunk(`{"role":"assistant","content":"read it"}`, "")+openAIChunk(`{}`, "stop")+usage+"data: [DONE]\n\n")
}

func (s *tokenizedServer) lastReported() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reported[len(s.reported)-1]
}

// loopbackTokens is the loopback's tokenizer: it counts what came over the
// wire — the decoded text of every message, tool call and tool schema —
// at the densities the guard's estimator assumes, safety margin included
// (prose 4 bytes a token, tool output 2, JSON 3, 12 tokens a message and 6
// a block, all × 1.2). A real tokenizer's count varies with the text
// around those densities, and the margin is there to cover that; this one
// is the tokenizer on which the estimate is right, so that what the test
// measures is the breakdown's accounting of the request — each piece sent
// counted once, nothing counted that is not sent — and not the
// estimator's accuracy, which contextguard's own tests hold.
func loopbackTokens(body []byte) (int, error) {
	var req struct {
		Messages []struct {
			Role      string          `json:"role"`
			Content   json.RawMessage `json:"content"`
			ToolCalls []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return 0, err
	}
	raw := 0.0
	for _, m := range req.Messages {
		raw += 12
		perToken := 4.0
		if m.Role == "tool" {
			perToken = 2
		}
		if text := contentText(m.Content); text != "" {
			if m.Role != "system" { // the system prompt is one message, not a block
				raw += 6
			}
			raw += float64(len(text)) / perToken
		}
		for _, c := range m.ToolCalls {
			raw += 6 + float64(len(c.ID)+len(c.Function.Name)+len(c.Function.Arguments))/3
		}
	}
	for _, t := range req.Tools {
		raw += 6 + float64(len(t.Function.Name)+len(t.Function.Description))/4 + float64(len(t.Function.Parameters))/3
	}
	return int(math.Ceil(raw * 1.2)), nil
}

// contentText is a message's content, a string or text parts.
func contentText(c json.RawMessage) string {
	var s string
	if json.Unmarshal(c, &s) == nil {
		return s
	}
	var parts []struct{ Type, Text string }
	_ = json.Unmarshal(c, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// reportedInput is the input tokens of the last answer of the run's
// agent_end, as steer took them from the provider.
func reportedInput(t *testing.T, seen []string) int {
	t.Helper()
	for i := len(seen) - 1; i >= 0; i-- {
		if !strings.Contains(seen[i], `"type":"agent_end"`) {
			continue
		}
		var end struct {
			Messages []struct {
				Role  string `json:"role"`
				Usage struct {
					Input int `json:"input"`
				} `json:"usage"`
			} `json:"messages"`
		}
		if err := json.Unmarshal([]byte(seen[i]), &end); err != nil || len(end.Messages) == 0 {
			t.Fatalf("agent_end: %v %.300s", err, seen[i])
		}
		return end.Messages[len(end.Messages)-1].Usage.Input
	}
	t.Fatal("no agent_end")
	return 0
}

// contextBreakdown is rpc's answer to inspect {what:"context"}.
type contextBreakdown struct {
	Parts []struct {
		Label  string  `json:"label"`
		Kind   string  `json:"kind"`
		Tokens int     `json:"tokens"`
		Share  float64 `json:"share"`
		Within bool    `json:"within"`
	} `json:"parts"`
	Total  int    `json:"total"`
	Window int    `json:"window"`
	Route  string `json:"route"`
}

// TestContextBreakdownAddsUpToTheProvidersCount: a session with tools, an
// AGENTS.md and the read of a 24 KB file; /context's parts (rpc inspect
// context) sum to its total, the context file and the large tool result
// are among them, and the total is within 5 % of the prompt_tokens the
// server reported for the last request (the next request is that one and
// the answer to it).
func TestContextBreakdownAddsUpToTheProvidersCount(t *testing.T) {
	srv := &tokenizedServer{}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	s := newSandbox(t)
	var big strings.Builder
	for i := 1; big.Len() < 24*1024; i++ {
		fmt.Fprintf(&big, plainLine, i)
	}
	if err := os.WriteFile(filepath.Join(s.workspace, bigFileName), []byte(big.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	agents := "# House rules\n\n" + strings.Repeat("Run the tests before every commit, and say which you ran.\n", 150)
	if err := os.WriteFile(filepath.Join(s.workspace, "AGENTS.md"), []byte(agents), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := writeFile(t, "config.json", `{"providers": {"local": {"api": "openai-chat", "baseURL": "`+ts.URL+`/v1",
		"models": [{"id": "m", "contextWindow": 128000, "maxOutput": 1024}]}}}`)

	cmd := s.command("--config", cfg, "--model", "local/m", "rpc")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	ch := lines(stdout)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var seen []string
	fmt.Fprintln(stdin, `{"type":"prompt","message":"read the big file","id":"p"}`)
	waitLine(t, ch, `"type":"agent_end"`, 30*time.Second, &seen)
	fmt.Fprintln(stdin, `{"type":"inspect","what":"context","id":"ctx"}`)
	waitLine(t, ch, `"id":"ctx"`, 10*time.Second, &seen)
	stdin.Close()
	if code := exitCode(t, cmd, 30*time.Second); code != 0 {
		t.Fatalf("steer rpc exit %d", code)
	}

	var answer struct {
		Success bool             `json:"success"`
		Error   string           `json:"error"`
		Data    contextBreakdown `json:"data"`
	}
	if err := json.Unmarshal([]byte(seen[len(seen)-1]), &answer); err != nil || !answer.Success {
		t.Fatalf("inspect context: %v %s", err, seen[len(seen)-1])
	}
	b := answer.Data
	sum, kinds := 0, map[string]bool{}
	for _, p := range b.Parts {
		kinds[p.Kind] = true
		if !p.Within {
			sum += p.Tokens
		}
	}
	if sum != b.Total {
		t.Errorf("the parts sum to %d, the total is %d: %+v", sum, b.Total, b.Parts)
	}
	for _, k := range []string{"system", "contextFiles", "tool", "messages", "toolResult"} {
		if !kinds[k] {
			t.Errorf("no part of kind %s: %+v", k, b.Parts)
		}
	}
	if b.Window != 128000 || b.Route != "fits" {
		t.Errorf("window %d, route %s", b.Window, b.Route)
	}
	reported := srv.lastReported()
	if got := reportedInput(t, seen); got != reported {
		t.Fatalf("the run's last answer says %d input tokens, the server reported %d", got, reported)
	}
	if d := math.Abs(float64(b.Total-reported)) / float64(reported); d > 0.05 {
		t.Fatalf("the breakdown's total %d is %.1f%% off the %d prompt tokens the server reported", b.Total, 100*d, reported)
	}
	t.Logf("breakdown total %d, reported %d", b.Total, reported)
}
