package e2e

import (
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

// Hooks in Claude Code's shape (issue 30) through the binary: a hooks file
// written for Claude Code, with its tool names, works unchanged.

// hooksConfig is a config whose hooks object is hooks (JSON).
func hooksConfig(t *testing.T, hooks string) string {
	t.Helper()
	return writeFile(t, "config.json", `{"hooks": `+hooks+`}`)
}

// hookScript writes a shell script and returns the hook command that runs
// it.
func hookScript(t *testing.T, body string) string {
	t.Helper()
	return "sh " + shQuote(writeFile(t, "hook.sh", body))
}

// TestAPreToolUseHookBlocksRm: a PreToolUse hook on Claude's "Bash" that
// exits 2 for rm blocks `rm x` with its stderr as the reason the model
// reads, x survives, the call still has its start and end, the model goes
// on, and the outcome is a hook event; a command the hook lets through runs.
func TestAPreToolUseHookBlocksRm(t *testing.T) {
	check := hookScript(t, `in=$(cat)
case "$in" in *'"command":"rm '*) echo "rm is not allowed here" >&2; exit 2;; esac
exit 0
`)
	cfg := hooksConfig(t, `{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": `+jsonString(check)+`}]}]}`)
	s := newSandbox(t)
	victim := filepath.Join(s.workspace, "x")
	if err := os.WriteFile(victim, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	flags := []string{"--config", cfg, "--approve", "auto"}

	r := callTool(t, s, flags, "bash", map[string]any{"command": "rm x"})
	if !r.isError || !strings.Contains(r.result, "rm is not allowed here") {
		t.Errorf("the blocked call's result is %q (error %v), want an error with the hook's reason", r.result, r.isError)
	}
	if !fileExists(victim) {
		t.Error("x was removed although the hook blocked rm")
	}
	if n := len(ofType(r.lines, "tool_execution_start")); n != 1 {
		t.Errorf("%d tool_execution_start events, want 1", n)
	}
	if n := len(ofType(r.lines, "turn_start")); n != 2 {
		t.Errorf("%d turns, want 2: a hook's refusal, unlike the user's, lets the model go on", n)
	}
	hookEvents := ofType(r.lines, "hook")
	if len(hookEvents) != 1 || hookEvents[0]["hook"] != "PreToolUse[0]" ||
		hookEvents[0]["outcome"] != "deny: rm is not allowed here" {
		t.Errorf("hook events %v, want one PreToolUse[0] deny with the reason", hookEvents)
	}

	r = callTool(t, s, flags, "bash", map[string]any{"command": "echo let-through"})
	if r.isError || !strings.Contains(r.result, "let-through") {
		t.Errorf("a command the hook allows gave %q (error %v)", r.result, r.isError)
	}
}

// TestAPostToolUseHookReadsTheResult: a PostToolUse hook gets Claude's
// fields on stdin, the tool's result in tool_response; what it prints as
// additionalContext joins the result the model reads.
func TestAPostToolUseHookReadsTheResult(t *testing.T) {
	got := filepath.Join(t.TempDir(), "stdin.json")
	record := hookScript(t, `cat > `+shQuote(got)+`
echo '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "seen by the hook"}}'
`)
	cfg := hooksConfig(t, `{"PostToolUse": [{"matcher": "Bash|Read", "hooks": [{"type": "command", "command": `+jsonString(record)+`}]}]}`)
	s := newSandbox(t)

	r := callTool(t, s, []string{"--config", cfg}, "bash", map[string]any{"command": "echo hello-from-bash"})
	if !strings.Contains(r.result, "hello-from-bash") || !strings.Contains(r.result, "seen by the hook") {
		t.Errorf("result %q, want the command's output and the hook's context", r.result)
	}
	raw, err := os.ReadFile(got)
	if err != nil {
		t.Fatalf("the hook did not run: %v", err)
	}
	var in struct {
		SessionID    string         `json:"session_id"`
		Cwd          string         `json:"cwd"`
		Event        string         `json:"hook_event_name"`
		ToolName     string         `json:"tool_name"`
		ToolInput    map[string]any `json:"tool_input"`
		ToolResponse map[string]any `json:"tool_response"`
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		t.Fatalf("the hook's stdin %q: %v", raw, err)
	}
	content, _ := in.ToolResponse["content"].(string)
	if in.Event != "PostToolUse" || in.ToolName != "bash" || in.ToolInput["command"] != "echo hello-from-bash" ||
		!strings.Contains(content, "hello-from-bash") || in.SessionID == "" || in.Cwd != s.workspace {
		t.Errorf("the hook's stdin is %s", raw)
	}
}

// TestAHookPastItsTimeoutIsKilled: a hook that sleeps past its timeout is
// killed and steer run says so on stderr; the call goes on as if it had
// not been there.
func TestAHookPastItsTimeoutIsKilled(t *testing.T) {
	slow(t)
	cfg := hooksConfig(t, `{"PreToolUse": [{"hooks": [{"type": "command", "command": "sleep 30", "timeout": 1}]}]}`)
	s := newSandbox(t)
	code, stdout, stderr := s.run(nil, "--pace", "0", "--config", cfg, "run",
		callPrompt(t, "bash", map[string]any{"command": "echo after-the-hook"}))
	if code != headless.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "hook PreToolUse[0] timed out after 1s: killed\n") {
		t.Errorf("stderr %q, want the hook's timeout line", stderr)
	}
	if !strings.Contains(stdout+stderr, "after-the-hook") {
		t.Errorf("the call did not run after the hook was killed: stdout %q stderr %q", stdout, stderr)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s) // a string always encodes
	return string(b)
}

// promptServer is an OpenAI-compatible server that records each request's
// body and answers in text.
type promptServer struct {
	mu     sync.Mutex
	bodies []string
}

func (p *promptServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	p.mu.Lock()
	p.bodies = append(p.bodies, string(body))
	p.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprint(w, openAIChunk(`{"role":"assistant","content":"noted"}`, "")+openAIChunk(`{}`, "stop")+"data: [DONE]\n\n")
}

func (p *promptServer) requests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.bodies...)
}

// TestUserPromptSubmitHooks: what a UserPromptSubmit hook prints reaches
// the model with the prompt, and the hook reads the prompt on stdin; a
// hook that exits 2 refuses the prompt with its reason, and nothing is
// sent.
func TestUserPromptSubmitHooks(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		blocked      bool
	}{
		{"context", `grep -q '"prompt":"hello hooks"' && echo "the build is green"`, false},
		{"block", `echo "no prompts today" >&2; exit 2`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := &promptServer{}
			ts := httptest.NewServer(srv)
			defer ts.Close()
			cfg := writeFile(t, "config.json", `{"providers": {"local": {"api": "openai-chat", "baseURL": "`+ts.URL+`/v1",
	"models": [{"id": "m"}]}}, "hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": `+
				jsonString(hookScript(t, tc.script))+`}]}]}}`)
			s := newSandbox(t)
			code, _, stderr := s.run(nil, "--config", cfg, "--model", "local/m", "run", "hello hooks")
			reqs := srv.requests()
			if tc.blocked {
				if code == headless.ExitOK || !strings.Contains(stderr, "blocked by a UserPromptSubmit hook: no prompts today") {
					t.Errorf("exit %d, stderr %q; want a refusal with the hook's reason", code, stderr)
				}
				if len(reqs) != 0 {
					t.Errorf("%d requests were sent for a blocked prompt", len(reqs))
				}
				return
			}
			if code != headless.ExitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if len(reqs) != 1 || !strings.Contains(reqs[0], "hello hooks") || !strings.Contains(reqs[0], "the build is green") {
				t.Errorf("requests %q, want the prompt with the hook's context", reqs)
			}
		})
	}
}
