package engines

import (
	"context"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/steer-tui/steer/agent"
)

// exampleEngine is the engine shipped in assets/examples, configured as the
// file's doc says; the test is skipped where python3 is missing.
func exampleEngine(t *testing.T) (ExternalConfig, *stderrLines) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("the example engine needs python3")
	}
	path, err := filepath.Abs(filepath.Join("..", "..", "assets", "examples", "trim_thinking.py"))
	if err != nil {
		t.Fatal(err)
	}
	lines := newStderrLines()
	return ExternalConfig{Name: "trim-thinking", Command: []string{"python3", path}, Stderr: lines}, lines
}

// TestExampleEngineEndToEnd runs the shipped example behind a Guard, as the
// runner will: earlier turns lose their thinking, the turn in progress
// keeps it, compaction is the built-in one, nothing is quarantined.
func TestExampleEngineEndToEnd(t *testing.T) {
	ctx := context.Background()
	cfg, stderr := exampleEngine(t)
	e := NewExternal(cfg)
	t.Cleanup(func() { e.Close() })
	store, ev := newMemStore(), &events{}
	g := NewGuard(cfg.Name, e, testLegacy(), GuardOptions{Timeout: startLimit, Store: store, OnQuarantine: ev.add})

	info, err := g.Info(ctx)
	if want := (Info{Name: "trim-thinking", Version: "1.0"}); err != nil || info != want {
		t.Fatalf("Info = %+v, %v; want %+v (quarantines: %+v)", info, err, want, ev.list())
	}
	if err := g.Bootstrap(ctx, BootstrapRequest{Session: session, Messages: transcript()}); err != nil {
		t.Fatal(err)
	}

	call := agent.ToolCall("c2", "read", map[string]any{"path": "a.go"})
	msgs := []agent.Message{
		user("list the files"),
		assistant(thinking("which tool?"), agent.ToolCall("c1", "ls", map[string]any{})),
		toolResult("c1", "a.go"),
		assistant(thinking("done"), agent.Text("one file: a.go")),
		assistant(thinking("only thinking")),
		user("read it"),
		assistant(thinking("read a.go"), call),
		toolResult("c2", "package a"),
	}
	res, err := g.Assemble(ctx, AssembleRequest{Session: session, SystemPrompt: "sp", Messages: msgs})
	if err != nil {
		t.Fatal(err)
	}
	want := []agent.Message{
		user("list the files"),
		assistant(agent.ToolCall("c1", "ls", map[string]any{})),
		toolResult("c1", "a.go"),
		assistant(agent.Text("one file: a.go")),
		assistant(thinking("only thinking")), // never emptied
		user("read it"),
		assistant(thinking("read a.go"), call), // the turn in progress keeps it
		toolResult("c2", "package a"),
	}
	if !reflect.DeepEqual(res.Messages, want) {
		t.Errorf("assembled\n%+v\nwant\n%+v", res.Messages, want)
	}
	if line := stderr.await(t, "trim-thinking:"); line != "trim-thinking: dropped the thinking of 2 earlier assistant message(s)" {
		t.Errorf("stderr: %q", line)
	}

	comp, err := g.Compact(ctx, CompactRequest{Session: session, Reason: CompactOverflow, Messages: msgs})
	if err != nil || comp.Summary != builtinSummary {
		t.Errorf("Compact = %+v, %v; want the built-in compaction it delegates to", comp, err)
	}
	if err := g.AfterTurn(ctx, AfterTurnRequest{Session: session, Messages: msgs[6:]}); err != nil {
		t.Error(err)
	}
	if qs, _ := store.List(ctx); len(qs) != 0 || len(ev.list()) != 0 {
		t.Errorf("the example engine was quarantined: %+v", qs)
	}
}

func TestExampleEngineConforms(t *testing.T) {
	cfg, _ := exampleEngine(t)
	runConformance(t, func(t *testing.T) Engine {
		e := NewExternal(cfg)
		t.Cleanup(func() { e.Close() })
		return e
	})
}
