package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
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
// reads, x survives, the call still has its start and end, and the outcome
// is a hook event; a command the hook lets through runs.
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
