package hooks

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func mustHook(t *testing.T, h Hook) Hook {
	t.Helper()
	h, err := New(h)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestEngineBlocksRm is the case: a Bash hook that exits 2 for rm.
func TestEngineBlocksRm(t *testing.T) {
	dir := t.TempDir()
	cmd := `grep -q '"command":"rm' && { echo "no rm, please" >&2; exit 2; }; exit 0`
	e := NewEngine([]Hook{mustHook(t, Hook{Event: PreToolUse, Matcher: "Bash", Command: cmd})}, Options{Dir: dir})
	got := e.Run(context.Background(), Input{HookEventName: PreToolUse, ToolName: "bash", ToolInput: map[string]any{"command": "rm x"}})
	if got.Decision != Deny || got.Reason != "no rm, please" {
		t.Errorf("rm: %+v", got)
	}
	got = e.Run(context.Background(), Input{HookEventName: PreToolUse, ToolName: "bash", ToolInput: map[string]any{"command": "ls"}})
	if got.Decision != None || got.Ran != 1 {
		t.Errorf("ls: %+v", got)
	}
	if got := e.Run(context.Background(), Input{HookEventName: PreToolUse, ToolName: "read"}); got.Ran != 0 {
		t.Errorf("read ran the Bash hook: %+v", got)
	}
}

// TestEngineStdinAndEnv: the hook reads the event on stdin and runs in the
// workspace with both project variables.
func TestEngineStdinAndEnv(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "seen")
	cmd := `cat > seen; echo "$CLAUDE_PROJECT_DIR $STEER_PROJECT_DIR" >> seen`
	e := NewEngine([]Hook{mustHook(t, Hook{Event: PostToolUse, Command: cmd})}, Options{Dir: dir})
	e.Run(context.Background(), Input{SessionID: "s1", HookEventName: PostToolUse, ToolName: "bash",
		ToolInput: map[string]any{"command": "echo hi"}, ToolResponse: map[string]any{"output": "hi"}})
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"session_id":"s1"`, `"cwd":"` + dir + `"`, `"hook_event_name":"PostToolUse"`,
		`"tool_response":{"output":"hi"}`, dir + " " + dir} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the hook saw %s, want %s in it", data, want)
		}
	}
}

// TestEngineTimeoutKills: a hook that sleeps past its timeout is killed,
// with what it started, and reported in the exact words of steer run.
func TestEngineTimeoutKills(t *testing.T) {
	var mu sync.Mutex
	var reports []string
	e := NewEngine([]Hook{
		mustHook(t, Hook{Event: PreToolUse, Command: "sleep 30", Timeout: 200 * time.Millisecond}),
		mustHook(t, Hook{Event: PreToolUse, Index: 1, Command: "exit 0"}),
	}, Options{Dir: t.TempDir(), Report: func(o Outcome) { mu.Lock(); reports = append(reports, o.Line()); mu.Unlock() }})
	start := time.Now()
	got := e.Run(context.Background(), Input{HookEventName: PreToolUse, ToolName: "bash"})
	if elapsed := time.Since(start); elapsed > 10*time.Second {
		t.Errorf("the sleeping hook was not killed: Run took %v", elapsed)
	}
	if got.Decision != None || got.Ran != 2 {
		t.Errorf("result %+v", got)
	}
	want := "hook PreToolUse[0] timed out after 200ms: killed"
	if len(reports) != 1 || reports[0] != want {
		t.Errorf("reports %q, want [%q]", reports, want)
	}
	list := e.List()
	if len(list) != 2 || !list[0].Last.Problem || list[1].Last.Text != "ran" {
		t.Errorf("List = %+v", list)
	}
}

func TestNewRefuses(t *testing.T) {
	for _, h := range []Hook{
		{Event: PreToolUse},
		{Event: PreToolUse, Command: "x", Timeout: -time.Second},
		{Event: Stop, Command: "x", Matcher: "Bash"},
		{Event: PreToolUse, Command: "x", Matcher: "(["},
	} {
		if _, err := New(h); err == nil {
			t.Errorf("New(%+v) accepted it", h)
		}
	}
}
