package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// Golden views: the plain theme (notty markdown), the ASCII profile, a fixed
// clock and no spinner ticks. Regenerate with go test ./tui -run Golden -update.

const answer = "## Findings\n\nThe build is **green**. Two things stand out:\n\n" +
	"- the cache is cold on CI\n- one test sleeps\n\n```go\nfunc TestX(t *testing.T) {}\n```\n"

func TestGoldenWelcome(t *testing.T) {
	h := newHarness(t, newRuntime(t, nil), 80, 24, func(o *Options) { o.Welcome = "Offline on the scripted provider." })
	checkGolden(t, h, 80, 24)
}

func TestGoldenConversation(t *testing.T) {
	probe := newGate("probe", "checking cache", "checking tests", "ok")
	close(probe.release)
	rt := newRuntime(t, []agent.Tool{probe},
		agenttest.Reply().Text("Let me look.").ToolCall("call_1", "probe", `{"path":"./..."}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text(answer).Usage(agent.Usage{Input: 1200, Output: 340}).Stop(agent.StopReasonStop))
	h := newHarness(t, rt, 80, 24)
	h.typeText("why is CI slow?")
	h.key(tea.KeyEnter, false)
	h.waitView("one test sleeps")
	h.waitFor("the run to end", func(m Model) bool { return !m.running })
	checkGolden(t, h, 80, 24)
}

func TestGoldenSteeringSmall(t *testing.T) {
	h, _ := runWithGate(t)
	h.send(tea.WindowSizeMsg{Width: 60, Height: 15})
	h.typeText("focus on tests")
	h.key(tea.KeyEnter, false)
	h.typeText("then write a summary")
	h.key(tea.KeyEnter, true)
	h.waitFor("two queued items", func(m Model) bool { return len(m.queue.Items()) == 2 })
	h.typeText("draft")
	checkGolden(t, h, 60, 15)
}

func TestGoldenInterrupted(t *testing.T) {
	h, _ := runWithGate(t)
	h.key(tea.KeyEsc, false)
	h.waitView("interrupted")
	h.waitFor("the run to end", func(m Model) bool { return !m.running })
	checkGolden(t, h, 80, 24)
}

func TestGoldenCompletion(t *testing.T) {
	h := newHarness(t, newRuntime(t, nil), 80, 24)
	h.typeText("/")
	checkGolden(t, h, 80, 24)
}

func TestGoldenHelp(t *testing.T) {
	h := newHarness(t, newRuntime(t, nil), 80, 30)
	h.typeText("/help")
	h.key(tea.KeyEnter, false)
	h.waitFor("the help dialog", func(m Model) bool { return len(m.dialogs) == 1 })
	checkGolden(t, h, 80, 30)
}

// checkGolden compares the view, once every request has been answered,
// with testdata/<test>.golden after checking that it fills exactly
// width×height.
func checkGolden(t *testing.T, h *harness, width, height int) {
	t.Helper()
	h.waitFor("the runtime's replies", Model.settled)
	view := h.m.View()
	checkSize(t, view, width, height)
	golden.RequireEqual(t, []byte(view))
}

func checkSize(t *testing.T, view string, width, height int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) != height {
		t.Errorf("view has %d lines, want %d:\n%s", len(lines), height, view)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > width {
			t.Errorf("line %d is %d wide, more than %d: %q", i+1, w, width, l)
		}
	}
}
