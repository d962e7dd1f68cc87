package runner

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/tools"
	"github.com/steer-tui/steer/persistence/checkpoint"
)

// TestCheckpointBeforeTheFirstMutatingTool runs a turn that writes a file
// and runs bash: one checkpoint is taken, before the write, and restoring
// it brings the workspace back.
func TestCheckpointBeforeTheFirstMutatingTool(t *testing.T) {
	ws, state := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	store := openStore(t, state)
	script := agenttest.NewScript(
		agenttest.Reply().ToolCall("c1", "write", `{"path":"c.txt","content":"new\n"}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().ToolCall("c2", "bash", `{"command":"rm a.txt"}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text("done").Stop(agent.StopReasonStop),
	)
	rt := newRuntime(t, store, script, Options{Workspace: ws, Approval: tools.ModeAuto,
		Tools: []agent.Tool{tools.Write(ws), tools.Bash(ws)}})
	if err := rt.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	shadow, err := checkpoint.Open(state, ws, checkpoint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	list, err := shadow.List(ctx, rt.SessionID())
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Turn != "1" || list[0].Kind != checkpoint.KindTurn {
		t.Fatalf("checkpoints %+v, want one of turn 1", list)
	}
	plan, err := shadow.Preview(ctx, list[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.External()) != 0 {
		t.Fatalf("steer's own changes named as external: %v", plan.External())
	}
	if _, err := shadow.Restore(ctx, plan, checkpoint.RestoreOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(ws, "a.txt")); err != nil {
		t.Errorf("a.txt is not back: %v", err)
	}
	if _, err := os.Stat(filepath.Join(ws, "c.txt")); !os.IsNotExist(err) {
		t.Errorf("c.txt is still there: %v", err)
	}
}
