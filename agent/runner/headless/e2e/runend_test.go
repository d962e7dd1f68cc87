package e2e

import (
	"bytes"
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

// Every run ends with a run_end {outcome, reason?} (SPEC §12, issue 25),
// the last line of `steer run --json`; the run record and `steer inspect
// runs` say the same.

// overflowingServer is an OpenAI-compatible server whose first answer
// reads the big file; after that it writes the summaries a compaction asks
// for and answers every other request with the provider's context
// overflow, however small the request has become.
type overflowingServer struct {
	mu    sync.Mutex
	calls int
}

func (o *overflowingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	o.mu.Lock()
	o.calls++
	first := o.calls == 1
	o.mu.Unlock()
	switch {
	case first:
		args, _ := json.Marshal(map[string]string{"path": bigFileName})
		call, _ := json.Marshal(map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{
			"index": 0, "id": "call_read", "type": "function",
			"function": map[string]any{"name": "read", "arguments": string(args)}}}})
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, openAIChunk(string(call), "")+openAIChunk(`{}`, "tool_calls")+"data: [DONE]\n\n")
	case bytes.Contains(body, []byte("You summarise conversations")):
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, openAIChunk(`{"role":"assistant","content":"## Goal\nread the big file"}`, "")+openAIChunk(`{}`, "stop")+"data: [DONE]\n\n")
	default:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`)
	}
}

// answeringServer answers every request "done".
func answeringServer(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprint(w, openAIChunk(`{"role":"assistant","content":"done"}`, "")+openAIChunk(`{}`, "stop")+"data: [DONE]\n\n")
}

// runOnLoopback runs `steer run --json` on a loopback server served by h.
func runOnLoopback(t *testing.T, s *sandbox, h http.Handler) (int, []map[string]any, string) {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	cfg := writeFile(t, "config.json", `{"providers": {"local": {"api": "openai-chat", "baseURL": "`+ts.URL+`/v1",
		"models": [{"id": "small", "contextWindow": 8192, "maxOutput": 1024}]}}}`)
	code, stdout, stderr := s.run(nil, "--config", cfg, "--model", "local/small", "run", "--json", "hello")
	return code, jsonLines(t, stdout), stderr
}

// lastRunEnd checks that the last line is the only run_end, with the
// session's id and a run id, and returns it.
func lastRunEnd(t *testing.T, lines []map[string]any) map[string]any {
	t.Helper()
	ends := ofType(lines, "run_end")
	if len(ends) != 1 || lines[len(lines)-1]["type"] != "run_end" {
		t.Fatalf("run_end lines %v; the last line is %v", ends, lines[len(lines)-1])
	}
	end := ends[0]
	if id, _ := end["runId"].(string); !strings.HasPrefix(id, "r_") || end["sessionId"] != lines[0]["id"] {
		t.Errorf("run_end %v: want the run's id and the session's (%v)", end, lines[0]["id"])
	}
	return end
}

// TestAnOverflowingRunEndsWithItsReason: a provider that overflows on every
// request after a 300 KB read (its summaries aside) ends the run failed, with reason context_overflow, in run_end,
// on stderr, in the exit status and in the run record.
func TestAnOverflowingRunEndsWithItsReason(t *testing.T) {
	s := newSandbox(t)
	writeBigFile(t, s, plainLine)
	code, lines, stderr := runOnLoopback(t, s, &overflowingServer{})
	if code == headless.ExitOK {
		t.Fatalf("exit %d for a run that cannot fit", code)
	}
	end := lastRunEnd(t, lines)
	reason, _ := end["reason"].(string)
	if end["outcome"] != "failed" || (reason != "context_overflow" && reason != "compaction_failure") {
		t.Fatalf("run_end %v, want failed with reason context_overflow or compaction_failure", end)
	}
	if !strings.Contains(stderr, "steer: run failed: "+reason+"\n") {
		t.Errorf("stderr %q does not name the reason", stderr)
	}
	out, err := s.command("inspect", "runs", "--json").Output()
	if err != nil {
		t.Fatalf("steer inspect runs --json: %v", err)
	}
	var runs []struct{ ID, Outcome, Reason string }
	if err := json.Unmarshal(out, &runs); err != nil || len(runs) == 0 {
		t.Fatalf("inspect runs: %s (%v)", out, err)
	}
	if r := runs[0]; r.ID != end["runId"] || r.Outcome != "failed" || r.Reason != reason {
		t.Errorf("the newest run record %+v, want run_end's %v", r, end)
	}
	text, err := s.command("inspect", "runs").Output()
	if err != nil || !strings.Contains(string(text), "REASON") || !strings.Contains(string(text), reason) {
		t.Errorf("steer inspect runs: %s (%v); want the reason shown", text, err)
	}
}

// TestACompletedRunEndsCompleted: an answered run's last line is run_end
// {outcome: completed}, with no reason, and stderr says nothing of it.
func TestACompletedRunEndsCompleted(t *testing.T) {
	s := newSandbox(t)
	code, lines, stderr := runOnLoopback(t, s, http.HandlerFunc(answeringServer))
	if code != headless.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	end := lastRunEnd(t, lines)
	if _, hasReason := end["reason"]; end["outcome"] != "completed" || hasReason {
		t.Fatalf("run_end %v, want completed without a reason", end)
	}
	if strings.Contains(stderr, "steer: run ") {
		t.Errorf("stderr %q speaks of a completed run's end", stderr)
	}
}
