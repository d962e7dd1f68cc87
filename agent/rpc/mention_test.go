package rpc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
)

// TestPromptAttachesMentions: a prompt's @-mentioned file goes with it, as
// from the TUI and steer run.
func TestPromptAttachesMentions(t *testing.T) {
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("the notes' text"), 0o600); err != nil {
		t.Fatal(err)
	}
	script := agenttest.NewScript(agenttest.Reply().Text("read").Stop(agent.StopReasonStop))
	h := newHarnessWith(t, script, runner.Options{Workspace: ws})
	h.send(`{"id":"p","type":"prompt","message":"summarise @notes.txt"}`)
	if _, resp := h.run("p"); resp["success"] != true {
		t.Fatalf("prompt: %v", resp)
	}
	reqs := script.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	var sent strings.Builder
	for _, c := range reqs[0].Messages[len(reqs[0].Messages)-1].Content {
		sent.WriteString(c.Text)
	}
	if !strings.Contains(sent.String(), "the notes' text") {
		t.Errorf("the request's last message does not carry the file: %q", sent.String())
	}
}
