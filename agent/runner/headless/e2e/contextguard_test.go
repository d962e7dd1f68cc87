package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/steer-tui/steer/agent/runner/headless"
	"github.com/steer-tui/steer/contextguard"
)

// The context guard (issue 12) through the binary: a 300 KB file read on a
// model that cannot hold it.

const (
	bigFileName  = "big.txt"
	bigFileBytes = 300 * 1024
	// tinyWindow is scripted/tiny's context window, and the loopback
	// model's.
	tinyWindow = 8192
	// bytesPerToken is how the loopback server measures a request.
	bytesPerToken = 4
)

// truncatedSuffix is the end TruncateToolResult gives a text it cut.
var truncatedSuffix = regexp.MustCompile(`\[\.\.\. (\d+) more characters truncated\]$`)

// plainLine and logLine are the lines of the two big files: one whose
// end looks unimportant to the truncation, one (a build log) whose end
// does.
const (
	plainLine = "line %06d of the big file, with some words to fill it up\n"
	logLine   = "line %06d of the build log: step done, 0 errors so far\n"
)

// writeBigFile writes a 300 KB file of numbered lines (format: one line,
// given its number) into the workspace.
func writeBigFile(t *testing.T, s *sandbox, format string) {
	t.Helper()
	var b strings.Builder
	for i := 1; b.Len() < bigFileBytes; i++ {
		fmt.Fprintf(&b, format, i)
	}
	if err := os.WriteFile(filepath.Join(s.workspace, bigFileName), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}

// overflowed returns what in a run's events says the provider's context
// overflowed: attempts ending in context_overflow and compactions.
func overflowed(lines []map[string]any) []map[string]any {
	var out []map[string]any
	for _, l := range lines {
		if l["type"] == "attempt_end" && l["reason"] == "context_overflow" ||
			l["type"] == "compaction_start" || l["type"] == "compaction_end" {
			out = append(out, l)
		}
	}
	return out
}

// finalAnswer is the last message of the run's agent_end.
func finalAnswer(t *testing.T, lines []map[string]any) map[string]any {
	t.Helper()
	ends := ofType(lines, "agent_end")
	if len(ends) != 1 {
		t.Fatalf("%d agent_end events", len(ends))
	}
	msgs, _ := ends[0]["messages"].([]any)
	if len(msgs) == 0 {
		t.Fatalf("agent_end without messages: %v", ends[0])
	}
	last, _ := msgs[len(msgs)-1].(map[string]any)
	return last
}

// messageText joins the text blocks of a message object.
func messageText(m map[string]any) string {
	if s, ok := m["content"].(string); ok {
		return s
	}
	blocks, _ := m["content"].([]any)
	var b strings.Builder
	for _, bl := range blocks {
		if c, ok := bl.(map[string]any); ok && c["type"] == "text" {
			b.WriteString(fmt.Sprint(c["text"]))
		}
	}
	return b.String()
}

// TestContextOverflowScenarioRecovers: on --scenario context-overflow (a
// ~4k-token window) reading a 300 KB file overflows; the run recovers and
// completes, with overflow compaction or the truncation step as events.
func TestContextOverflowScenarioRecovers(t *testing.T) {
	s := newSandbox(t)
	writeBigFile(t, s, plainLine)
	code, stdout, stderr := s.run(nil, "--scenario", "context-overflow", "--pace", "0", "run", "--json", "read "+bigFileName)
	if code != headless.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := jsonLines(t, stdout)
	var overflowCompaction, replaced bool
	for _, l := range lines {
		switch {
		case l["type"] == "compaction_start" && l["reason"] == "overflow":
			overflowCompaction = true
		case l["type"] == "context_replaced":
			replaced = true
		}
	}
	if !overflowCompaction && !replaced {
		t.Fatalf("no compaction_start {reason: overflow} and no context_replaced in %v", overflowed(lines))
	}
	for _, l := range ofType(lines, "compaction_end") {
		for _, field := range []string{"reason", "result", "aborted", "willRetry", "tokensBefore", "tokensAfter"} {
			if _, ok := l[field]; !ok {
				t.Errorf("compaction_end without %s: %v", field, l)
			}
		}
	}
	if starts, ends := len(ofType(lines, "compaction_start")), len(ofType(lines, "compaction_end")); starts != ends {
		t.Errorf("%d compaction_start, %d compaction_end", starts, ends)
	}
	last := finalAnswer(t, lines)
	if last["role"] != "assistant" || last["stopReason"] != "stop" || !strings.Contains(messageText(last), bigFileName) {
		t.Fatalf("the run's last message: %v", last)
	}
}

// tinyOverflowScenario answers like the default, except that any request
// over scripted/tiny's window fails as a real provider's overflow would.
var tinyOverflowScenario = `{"then": "default", "steps": [{"when": {"model": "tiny", "minContextTokens": ` +
	strconv.Itoa(tinyWindow) + `}, "always": true, "fault": "http", "error": {"status": 400,
	"type": "invalid_request_error", "code": "context_length_exceeded",
	"message": "This model's maximum context length is 8192 tokens."}}]}`

// readAnswerLines matches the scripted model's report of a read result.
var readAnswerLines = regexp.MustCompile("`" + bigFileName + "` has (\\d+) lines")

// TestTinyWindowTruncatesTheReadOnTheScriptedProvider: on scripted/tiny (an
// 8k window) the read of a 300 KB file reaches the model cut to the
// window's tool-result limit, and no request ever overflows the window.
func TestTinyWindowTruncatesTheReadOnTheScriptedProvider(t *testing.T) {
	s := newSandbox(t)
	writeBigFile(t, s, plainLine)
	scenario := writeFile(t, "tiny-overflow.json", tinyOverflowScenario)
	code, stdout, stderr := s.run(nil, "--scenario", scenario, "--model", "scripted/tiny", "--pace", "0", "run", "--json", "read "+bigFileName)
	if code != headless.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := jsonLines(t, stdout)
	if o := overflowed(lines); len(o) > 0 {
		t.Fatalf("the run overflowed: %v", o)
	}
	ends := ofType(lines, "tool_execution_end")
	if len(ends) != 1 {
		t.Fatalf("%d tool_execution_end events", len(ends))
	}
	result, _ := ends[0]["result"].(map[string]any)
	toolLines := strings.Count(messageText(result), "\n") + 1
	limit := contextguard.ToolResultLimit(tinyWindow)
	answer := messageText(finalAnswer(t, lines))
	m := readAnswerLines.FindStringSubmatch(answer)
	if m == nil {
		t.Fatalf("the answer does not say how many lines the model got: %q", answer)
	}
	seen, _ := strconv.Atoi(m[1])
	// Each line of the file is 60 bytes and more with its number.
	if seen >= toolLines || seen*60 > limit {
		t.Fatalf("the model got %d lines of the tool's %d; the limit is %d bytes", seen, toolLines, limit)
	}
	if !strings.Contains(answer, "line 000001 of the big file") {
		t.Fatalf("the head of the file is not in what the model got: %q", answer)
	}
}

// chatServer is an OpenAI-compatible server that records each request's
// body: its first answer calls read on the big file, later ones answer in
// text. A request whose body is larger than the window could hold (at 4
// bytes a token) fails as an overflow.
type chatServer struct {
	window int
	mu     sync.Mutex
	bodies [][]byte
}

func (c *chatServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	c.mu.Lock()
	c.bodies = append(c.bodies, body)
	n := len(c.bodies)
	c.mu.Unlock()
	if len(body) > bytesPerToken*c.window {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"error":{"message":"This model's maximum context length is %d tokens. However, your messages resulted in %d tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`,
			c.window, len(body)/bytesPerToken)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	if n == 1 {
		args, _ := json.Marshal(map[string]string{"path": bigFileName})
		call, _ := json.Marshal(map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{
			"index": 0, "id": "call_read", "type": "function",
			"function": map[string]any{"name": "read", "arguments": string(args)}}}})
		fmt.Fprint(w, openAIChunk(string(call), "")+openAIChunk(`{}`, "tool_calls")+"data: [DONE]\n\n")
		return
	}
	fmt.Fprint(w, openAIChunk(`{"role":"assistant","content":"read it"}`, "")+openAIChunk(`{}`, "stop")+"data: [DONE]\n\n")
}

func (c *chatServer) requests() [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([][]byte(nil), c.bodies...)
}

// toolMessages returns the content of the tool messages of a chat request.
func toolMessages(t *testing.T, body []byte) []string {
	t.Helper()
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("request body: %v: %.300s", err, body)
	}
	var out []string
	for _, m := range req.Messages {
		if m.Role != "tool" {
			continue
		}
		var text string
		if json.Unmarshal(m.Content, &text) != nil {
			var parts []struct{ Type, Text string }
			if err := json.Unmarshal(m.Content, &parts); err != nil {
				t.Fatalf("tool message content %s", m.Content)
			}
			for _, p := range parts {
				text += p.Text
			}
		}
		out = append(out, text)
	}
	return out
}

// TestTinyWindowTruncatesTheReadOnALoopbackServer: a provider configured
// with an 8k-token model on a loopback OpenAI-compatible server receives the
// read of a 300 KB file cut to the window's tool-result limit: its head, the
// middle marker, the tail (the read's own last line, which says how to go
// on: its "in total" is an important-tail word) and the truncation suffix;
// no request overflows.
func TestTinyWindowTruncatesTheReadOnALoopbackServer(t *testing.T) {
	for _, tc := range []struct{ name, line string }{
		{"plain", plainLine},
		{"log", logLine},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := readThroughLoopback(t, tc.line)
			limit := contextguard.ToolResultLimit(tinyWindow)
			m := truncatedSuffix.FindStringSubmatch(got)
			if m == nil {
				t.Fatalf("the tool result sent is not marked as truncated (%d bytes): ...%q", len(got), got[max(0, len(got)-200):])
			}
			body := strings.TrimSuffix(got, m[0])
			if len(body) > limit {
				t.Errorf("the tool result sent keeps %d bytes, over the %d-byte limit of an 8k window", len(body), limit)
			}
			if first := fmt.Sprintf(tc.line, 1); !strings.Contains(body[:min(len(body), 200)], strings.TrimSpace(first)) {
				t.Errorf("the head of the file is not what was sent first: %.200q", body)
			}
			if dropped, _ := strconv.Atoi(m[1]); dropped < 10_000 {
				t.Errorf("the suffix says %d bytes were dropped", dropped)
			}
			marker := strings.Index(body, contextguard.MiddleMarker)
			if marker < 0 {
				t.Fatalf("no middle marker: the read's tail was dropped: ...%q", body[max(0, len(body)-300):])
			}
			if tail := body[marker+len(contextguard.MiddleMarker):]; !strings.Contains(tail, "use offset=") {
				t.Errorf("the tail sent is not the end of the read's page: %q", tail)
			}
		})
	}
}

// readThroughLoopback runs `steer run` on an 8k-window model of a loopback
// OpenAI-compatible server that reads a 300 KB file of lines in format, and
// returns the tool result the server received.
func readThroughLoopback(t *testing.T, format string) string {
	t.Helper()
	srv := &chatServer{window: tinyWindow}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	s := newSandbox(t)
	writeBigFile(t, s, format)
	cfg := writeFile(t, "config.json", `{"providers": {"local": {"api": "openai-chat", "baseURL": "`+ts.URL+`/v1",
		"models": [{"id": "small", "contextWindow": `+strconv.Itoa(tinyWindow)+`, "maxOutput": 1024}]}}}`)
	code, stdout, stderr := s.run(nil, "--config", cfg, "--model", "local/small", "run", "--json", "read the big file")
	if code != headless.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if o := overflowed(jsonLines(t, stdout)); len(o) > 0 {
		t.Fatalf("the run overflowed: %v", o)
	}
	reqs := srv.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want the call and the answer", len(reqs))
	}
	tools := toolMessages(t, reqs[1])
	if len(tools) != 1 {
		t.Fatalf("%d tool messages in the second request", len(tools))
	}
	return tools[0]
}

// TestTheStatedLimitBecomesTheWindow: a model configured with a 200k window
// whose server overflows at 8k tokens, saying so ("maximum context length is
// 8192 tokens"), recovers: the retry sends the read cut to an 8k window's
// limit, and the run completes.
func TestTheStatedLimitBecomesTheWindow(t *testing.T) {
	srv := &chatServer{window: tinyWindow}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	s := newSandbox(t)
	writeBigFile(t, s, plainLine)
	cfg := writeFile(t, "config.json", `{"providers": {"local": {"api": "openai-chat", "baseURL": "`+ts.URL+`/v1",
		"models": [{"id": "big", "contextWindow": 200000, "maxOutput": 1024}]}}}`)
	code, stdout, stderr := s.run(nil, "--config", cfg, "--model", "local/big", "run", "--json", "read the big file")
	if code != headless.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := jsonLines(t, stdout)
	if o := overflowed(lines); len(o) == 0 {
		t.Fatalf("no overflow: the server's limit was never reached")
	}
	reqs := srv.requests()
	last := reqs[len(reqs)-1]
	if len(last) > bytesPerToken*tinyWindow {
		t.Fatalf("the last request is %d bytes, over the stated window", len(last))
	}
	tools := toolMessages(t, last)
	if len(tools) != 1 {
		t.Fatalf("%d tool messages in the retry", len(tools))
	}
	if body := truncatedSuffix.ReplaceAllString(tools[0], ""); len(body) > contextguard.ToolResultLimit(tinyWindow) {
		t.Fatalf("the retry sends %d bytes of tool result, over an 8k window's limit", len(body))
	}
	if answer := messageText(finalAnswer(t, lines)); answer != "read it" {
		t.Fatalf("the answer %q", answer)
	}
}

// overflowAt30k fails every request of 30,000 estimated tokens or more as
// a context overflow, and answers the others by default.
const overflowAt30k = `{"then": "default", "steps": [{"when": {"minContextTokens": 30000}, "always": true, "fault": "http",
	"error": {"status": 400, "type": "invalid_request_error", "code": "context_length_exceeded",
	"message": "This model's maximum context length is 30000 tokens."}}]}`

// TestOverflowCompactsOnceAndKeepsTheTail: a session of three reads of a
// big file, continued on a provider that overflows over 30k tokens,
// compacts once (reason overflow, with a summary) and completes; the saved
// transcript starts with the summary and keeps the recent tail verbatim.
func TestOverflowCompactsOnceAndKeepsTheTail(t *testing.T) {
	s := newSandbox(t)
	writeBigFile(t, s, plainLine)
	for i := 0; i < 3; i++ {
		args := []string{"--pace", "0", "run", "read " + bigFileName}
		if i > 0 {
			args = append([]string{"--continue"}, args...)
		}
		if code, _, stderr := s.run(nil, args...); code != headless.ExitOK {
			t.Fatalf("read %d: exit %d: %s", i+1, code, stderr)
		}
	}
	scenario := writeFile(t, "overflow.json", overflowAt30k)
	code, stdout, stderr := s.run(nil, "--continue", "--scenario", scenario, "--pace", "0", "run", "--json", "and now?")
	if code != headless.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := jsonLines(t, stdout)
	starts, ends := ofType(lines, "compaction_start"), ofType(lines, "compaction_end")
	if len(starts) != 1 || starts[0]["reason"] != "overflow" || len(ends) != 1 || ends[0]["reason"] != "overflow" {
		t.Fatalf("compactions: %v / %v, want one for the overflow", starts, ends)
	}
	if result, _ := ends[0]["result"].(map[string]any); result == nil || result["summary"] == "" || ends[0]["aborted"] != false {
		t.Fatalf("compaction_end %v: want a summary", ends[0])
	}
	if before, after := ends[0]["tokensBefore"].(float64), ends[0]["tokensAfter"].(float64); after >= before {
		t.Errorf("tokens %v before, %v after", before, after)
	}
	if last := finalAnswer(t, lines); last["stopReason"] != "stop" || !strings.HasPrefix(messageText(last), "You said: and now?") {
		t.Fatalf("the run's answer %v", last)
	}

	history := savedTranscript(t, s)
	if first := history[0]; first["role"] != "user" || messageText(first) != "read big.txt" || first["id"] != "1" || first["parentId"] != nil {
		t.Fatalf("the history starts with %v, want the first prompt, kept", first)
	}
	compactions := 0
	for i, e := range history {
		if i > 0 && e["parentId"] != history[i-1]["id"] {
			t.Fatalf("entry %d's parent is %v, want %v", i, e["parentId"], history[i-1]["id"])
		}
		if e["type"] == "context" && e["role"] == nil {
			compactions++
		}
	}
	if compactions != 1 {
		t.Fatalf("%d compaction entries in the history, want 1", compactions)
	}
	msgs := savedTranscript(t, s, "--context")
	if first := msgs[0]; first["role"] != "user" || !strings.Contains(messageText(first), "<summary>") {
		t.Fatalf("the saved transcript starts with %v, want the summary", first)
	}
	n := len(msgs)
	if n < 4 || messageText(msgs[n-2]) != "and now?" || msgs[n-3]["role"] != "assistant" || msgs[n-4]["role"] != "toolResult" ||
		!strings.Contains(messageText(msgs[n-4]), "line 000001 of the big file") {
		t.Fatalf("the recent tail is not kept verbatim: %d messages, ending %v", n, msgs[max(0, n-4):])
	}
}

// savedTranscript reads the only session's history through `steer
// sessions show ID --json`, or with "--context" what the model sees.
func savedTranscript(t *testing.T, s *sandbox, flags ...string) []map[string]any {
	t.Helper()
	out, err := s.command("sessions", "--json").Output()
	if err != nil {
		t.Fatalf("steer sessions: %v", err)
	}
	var list []struct{ ID string }
	if err := json.Unmarshal(out, &list); err != nil || len(list) != 1 {
		t.Fatalf("sessions: %s (%v)", out, err)
	}
	out, err = s.command(append([]string{"sessions", "show", list[0].ID, "--json"}, flags...)...).Output()
	if err != nil {
		t.Fatalf("steer sessions show: %v", err)
	}
	var msgs []map[string]any
	if err := json.Unmarshal(out, &msgs); err != nil || len(msgs) == 0 {
		t.Fatalf("transcript: %.300s (%v)", out, err)
	}
	return msgs
}
