package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/hooks"
	"github.com/steer-tui/steer/agent/tools"
	"github.com/steer-tui/steer/failover"
)

// memoryWorkspace builds context files at every level under a new
// directory, which is also the home directory where the walk up would end:
// a global AGENTS.md of 1.5 KB, a repository root with an AGENTS.md and a
// CLAUDE.md beside it (passed over), a directory with a CLAUDE.md alone,
// and the workspace's AGENTS.md. It returns the workspace and the sources.
func memoryWorkspace(t *testing.T) (string, *tools.ContextSources) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(base, "repo")
	ws := filepath.Join(repo, "mid", "workspace")
	files := map[string]string{
		filepath.Join(base, "config", "steer", "AGENTS.md"): strings.Repeat("Keep the global rules short.\n", 53),
		filepath.Join(repo, "AGENTS.md"):                    "Run go test before you commit.\n",
		filepath.Join(repo, "CLAUDE.md"):                    "Passed over: an AGENTS.md is beside it.\n",
		filepath.Join(repo, "mid", "CLAUDE.md"):             "The middle directory's rules.\n",
		filepath.Join(ws, "AGENTS.md"):                      "The workspace's own rules.\n",
	}
	for _, dir := range []string{filepath.Join(repo, ".git"), filepath.Join(base, "config", "steer"), ws} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for path, text := range files {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return ws, &tools.ContextSources{Global: filepath.Join(base, "config", "steer"), Home: base}
}

// TestProgramListsContextFiles: /memory lists the context files outermost
// first, each with its level and its size (the global one in KB), and the
// CLAUDE.md beside an AGENTS.md as skipped.
func TestProgramListsContextFiles(t *testing.T) {
	ws, src := memoryWorkspace(t)
	rt := rotationRuntime(t, &fakeClock{t: epoch}, &failover.MemLedger{}, func(o *runner.Options) {
		o.Workspace, o.ContextFiles = ws, src
	})
	tm := startProgram(t, rt)
	tm.Type("/memory")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitOutput(t, tm, "Context files", "1 skipped")
	lastFrame(t, tm)
}

// hookedRuntime is a runtime on a new workspace holding x, with the
// built-in tools, hs and clock: its model calls bash twice, `echo ok` then
// `rm x`, and then answers "done".
func hookedRuntime(t *testing.T, clock *fakeClock, hs ...hooks.Hook) (rt *runner.Runtime, workspace string) {
	t.Helper()
	workspace = t.TempDir()
	if err := os.WriteFile(filepath.Join(workspace, "x"), []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	script := agenttest.NewScript(
		agenttest.Reply().ToolCall("call_echo", "bash", `{"command":"echo ok"}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().ToolCall("call_rm", "bash", `{"command":"rm x"}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text("done").Stop(agent.StopReasonStop))
	rt, err := runner.New(context.Background(), runner.Options{
		Providers: []runner.Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: script.Stream}},
		Tools:     tools.New(workspace), Approval: tools.ModeAuto, Hooks: hs, Workspace: workspace, Now: clock.Now,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		rt.Abort()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = rt.WaitForIdle(ctx)
		_ = rt.Close(ctx)
	})
	return rt, workspace
}

// TestProgramListsHooks: after a run in which a PreToolUse hook on Claude's
// "Bash" let `echo ok` through and blocked `rm x`, /hooks lists every hook
// with its event, matcher, command and last outcome: the PreToolUse one's
// refusal, "ran" for the PostToolUse and UserPromptSubmit ones, and none
// for the SessionEnd hook, which has not run yet.
func TestProgramListsHooks(t *testing.T) {
	var hs []hooks.Hook
	for _, h := range []hooks.Hook{
		{Event: hooks.PreToolUse, Matcher: "Bash", Command: "grep -q 'rm x' && echo no rm >&2 && exit 2; exit 0"},
		{Event: hooks.PostToolUse, Matcher: "Bash", Command: "cat >/dev/null"},
		{Event: hooks.UserPromptSubmit, Command: "echo the build is green"},
		{Event: hooks.SessionEnd, Command: "echo bye"},
	} {
		h.Timeout, h.Source = 5*time.Second, "config.json"
		hook, err := hooks.New(h)
		if err != nil {
			t.Fatal(err)
		}
		hs = append(hs, hook)
	}
	clock := &fakeClock{t: epoch}
	rt, workspace := hookedRuntime(t, clock, hs...)
	tm := startProgramAt(t, rt, clock)
	tm.Type("clean up")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitOutput(t, tm, "done")
	tm.Type("/hooks")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitOutput(t, tm, "SessionEnd[0]", "deny: no rm")
	final := lastFrame(t, tm)
	if _, err := os.Stat(filepath.Join(workspace, "x")); err != nil {
		t.Errorf("x is gone although the hook blocked rm: %v\n%s", err, final.View())
	}
}
