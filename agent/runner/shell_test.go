package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/tools"
)

// TestShellRunsThroughTheBashTool: Shell runs the command with the
// session's bash tool and the next request holds its output.
func TestShellRunsThroughTheBashTool(t *testing.T) {
	ws := t.TempDir()
	script := agenttest.NewScript(agenttest.Reply().Text("ok").Stop(agent.StopReasonStop))
	rt := newRuntime(t, openStore(t, t.TempDir()), script, Options{Workspace: ws, Tools: []agent.Tool{tools.Bash(ws)}, Approval: tools.ModeAuto})
	if _, queued, err := rt.Shell(context.Background(), "echo shell-$((40+2))", false); err != nil || queued {
		t.Fatalf("Shell: queued %v, %v", queued, err)
	}
	waitIdle(t, rt)
	if err := rt.Prompt(context.Background(), "what did it say?"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	reqs := script.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	var all []string
	for _, m := range reqs[0].Messages {
		all = append(all, m.TextContent())
	}
	if !strings.Contains(strings.Join(all, "\n"), "shell-42") {
		t.Fatalf("the request lacks the output: %q", all)
	}
}
