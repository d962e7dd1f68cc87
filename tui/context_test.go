package tui

import (
	"context"
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// TestProgramContext: after a run, /context opens the breakdown of the
// next request: its turn and its tool as lines, and the total the runner
// measures on the last line.
func TestProgramContext(t *testing.T) {
	rt := newRuntime(t, nil, agenttest.Reply().Text("answered").Stop(agent.StopReasonStop))
	tm := startProgram(t, rt)
	tm.Type("hello")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitOutput(t, tm, "answered")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := rt.WaitForIdle(ctx); err != nil { // the answer is in the transcript, not only on screen
		t.Fatal(err)
	}
	total := rt.ContextBreakdown().Total
	tm.Type("/context")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitOutput(t, tm, "Context", "turn 1 (2 messages)", "tool task", "total", fmt.Sprint(total))
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	quit(t, tm)
}
