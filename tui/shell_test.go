package tui

import (
	"context"
	"regexp"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/tools"
)

// newShellRuntime is newRuntime with the real bash tool in a temporary
// workspace, run without asking.
func newShellRuntime(t *testing.T, responses ...*agenttest.Response) *runner.Host {
	t.Helper()
	ws := t.TempDir()
	script := agenttest.NewScript(responses...)
	rt, err := runner.New(context.Background(), runner.Options{
		Providers: []runner.Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: script.Stream}},
		Tools:     []agent.Tool{tools.Bash(ws)}, Workspace: ws, Approval: tools.ModeAuto,
		Now: agenttest.Clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	h := runner.NewHost(rt)
	t.Cleanup(func() {
		h.AbortWith(runner.AbortQuit)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = h.WaitForIdle(ctx)
	})
	return h
}

// TestGoldenShellBlocks: `!cmd` and `!!cmd` show as tool blocks with their
// output open, the exit code, and for `!!` that the model never sees it; a
// failing command keeps its output.
func TestGoldenShellBlocks(t *testing.T) {
	h := newHarness(t, newShellRuntime(t), 80, 24)
	h.typeText("!echo hello from the shell")
	h.key(tea.KeyEnter, false)
	h.waitView("│ hello from the shell")
	h.typeText("!!printf 'mine\\n'; exit 3")
	h.key(tea.KeyEnter, false)
	h.waitView("not sent to the model")
	h.waitFor("the run to end", func(m Model) bool { return !m.running })
	h.waitView("[exit code 3]")
	h.waitFor("the runtime's replies", Model.settled)
	view := h.m.View()
	checkSize(t, view, 80, 24)
	// The durations are the real commands': the golden holds none.
	golden.RequireEqual(t, []byte(duration.ReplaceAllString(view, "· Nms")))
}

// duration is a tool block's measured duration.
var duration = regexp.MustCompile(`· \d+(\.\d+)?m?s\b`)
