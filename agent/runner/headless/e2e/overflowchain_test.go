package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/steer-tui/steer/agent/runner/headless"
)

// keptTailServer answers earlier talk "ok", reads log.txt when asked to,
// writes the summaries a compaction asks for, and overflows every request
// that carries a tool result: one 100 kB read in the kept tail keeps every
// request too big, however the session is compacted. overflows counts those.
type keptTailServer struct {
	mu        sync.Mutex
	overflows int
}

func (s *keptTailServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	stream := func(delta, finish string) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, openAIChunk(delta, "")+openAIChunk(`{}`, finish)+"data: [DONE]\n\n")
	}
	switch {
	case !bytes.Contains(body, []byte(`"content":"You are steer`)): // the summariser
		stream(`{"role":"assistant","content":"## Goal\nread the log (summary)"}`, "stop")
	case bytes.Contains(body, []byte(`"role":"tool"`)):
		s.mu.Lock()
		s.overflows++
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"error":{"message":"This model's maximum context length is 20000 tokens. However, your messages resulted in 31000 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`)
	case bytes.Contains(body, []byte("read log.txt")):
		args, _ := json.Marshal(map[string]string{"path": "log.txt"})
		call, _ := json.Marshal(map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{
			"index": 0, "id": "call_read", "type": "function", "function": map[string]any{"name": "read", "arguments": string(args)}}}})
		stream(string(call), "tool_calls")
	default:
		stream(`{"role":"assistant","content":"ok"}`, "stop")
	}
}

// TestOverflowChainStepsThroughTheBinary: every request overflowing, with
// one 100 kB tool result in the kept tail, takes exactly the seed's three
// steps (seed 002 §5, §12): compact and retry, cut the tool result and
// retry, give up — three overflowing requests, one compaction, one cut —
// and steer run exits failed with reason context_overflow in --json.
func TestOverflowChainStepsThroughTheBinary(t *testing.T) {
	srv := &keptTailServer{}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	s := newSandbox(t)
	var log strings.Builder
	for i := 1; log.Len() < 100_000; i++ {
		fmt.Fprintf(&log, logLine, i)
	}
	if err := os.WriteFile(filepath.Join(s.workspace, "log.txt"), []byte(log.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := writeFile(t, "config.json", `{"providers": {"local": {"api": "openai-chat", "baseURL": "`+ts.URL+`/v1",
		"models": [{"id": "m", "contextWindow": 200000, "maxOutput": 1000}]}}}`)
	for i := range 4 { // earlier talk for the compaction to summarise
		args := []string{"--config", cfg, "--model", "local/m", "run", fmt.Sprintf("note %d: %s", i, strings.Repeat("earlier talk ", 600))}
		if i > 0 {
			args = append(args[:4], append([]string{"--continue"}, args[4:]...)...)
		}
		if code, _, stderr := s.run(nil, args...); code != headless.ExitOK {
			t.Fatalf("building the session: exit %d: %s", code, stderr)
		}
	}
	code, stdout, stderr := s.run(nil, "--config", cfg, "--model", "local/m", "--continue", "run", "--json", "read log.txt")
	if code == headless.ExitOK {
		t.Fatalf("exit %d for a run that cannot fit", code)
	}
	lines := jsonLines(t, stdout)
	var steps []string
	for _, l := range lines {
		switch l["type"] {
		case "attempt_end":
			if l["reason"] == "context_overflow" {
				steps = append(steps, "overflow")
			}
		case "compaction_end":
			steps = append(steps, fmt.Sprintf("compaction %v ok=%v", l["reason"], l["result"] != nil))
		case "context_replaced":
			steps = append(steps, "context_replaced")
		}
	}
	want := []string{"overflow", "context_replaced", "compaction overflow ok=true", "overflow", "context_replaced", "overflow"}
	if strings.Join(steps, ", ") != strings.Join(want, ", ") {
		t.Fatalf("steps %v, want %v (compact, cut, give up)", steps, want)
	}
	srv.mu.Lock()
	overflows := srv.overflows
	srv.mu.Unlock()
	if overflows != 3 {
		t.Fatalf("%d overflowing requests, want 3", overflows)
	}
	end := lastRunEnd(t, lines)
	if end["outcome"] != "failed" || end["reason"] != "context_overflow" {
		t.Fatalf("run_end %v, want failed with context_overflow", end)
	}
	if !strings.Contains(stderr, "steer: run failed: context_overflow\n") {
		t.Fatalf("stderr %q does not name the reason", stderr)
	}
}
