package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

func TestStreamingTextAppearsIncrementally(t *testing.T) {
	first, second := make(chan struct{}), make(chan struct{})
	rt := newRuntime(t, nil, agenttest.Reply().
		Text("Hello").Wait(first).
		Text(", streaming").Wait(second).
		Text(" world.").Stop(agent.StopReasonStop))
	h := newHarness(t, rt, 80, 24)

	h.typeText("hi")
	h.key(tea.KeyEnter, false)
	h.waitView("❯ hi", "Hello")
	if v := h.m.View(); strings.Contains(v, "streaming") {
		t.Fatalf("text arrived before it was streamed:\n%s", v)
	}
	close(first)
	h.waitView("Hello, streaming")
	if strings.Contains(h.m.View(), "world") {
		t.Fatal("the last delta showed early")
	}
	close(second)
	h.waitView("Hello, streaming world.")
	h.waitFor("the run to end", func(m Model) bool { return !m.running })
}

func TestToolBlockShowsLiveOutputThenCollapses(t *testing.T) {
	probe := newGate("probe", "line 1", "line 2", "line 3")
	rt := newRuntime(t, []agent.Tool{probe},
		agenttest.Reply().Text("Probing.").ToolCall("call_1", "probe", `{"target":"disk"}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text("Probe done.").Stop(agent.StopReasonStop))
	h := newHarness(t, rt, 80, 24)

	h.typeText("probe it")
	h.key(tea.KeyEnter, false)
	h.waitFor("the tool to start", func(Model) bool { return closed(probe.started) })
	h.waitView("probe target=\"disk\"", "│ line 1", "│ line 3")
	if v := h.m.View(); strings.Contains(v, "✓ probe") {
		t.Fatalf("the tool shows as done while it runs:\n%s", v)
	}
	close(probe.release)
	h.waitView("✓ probe", "Probe done.", "└ 3 lines of output hidden")
	if v := h.m.View(); strings.Contains(v, "│ line 3") {
		t.Fatalf("the finished block did not collapse:\n%s", v)
	}

	// Ctrl+O expands every tool block; again collapses them.
	h.send(tea.KeyMsg{Type: tea.KeyCtrlO})
	h.waitView("│ line 1", "│ line 3")
	h.send(tea.KeyMsg{Type: tea.KeyCtrlO})
	h.waitFor("collapse", func(m Model) bool { return !strings.Contains(m.View(), "│ line 1") })
}

// runWithGate starts a run that waits in a tool, so that input typed now is
// steering.
func runWithGate(t *testing.T, responses ...*agenttest.Response) (*harness, *gate) {
	t.Helper()
	probe := newGate("probe", "working")
	all := append([]*agenttest.Response{
		agenttest.Reply().ToolCall("call_1", "probe", `{}`).Stop(agent.StopReasonToolUse),
	}, responses...)
	rt := newRuntime(t, []agent.Tool{probe}, all...)
	h := newHarness(t, rt, 80, 24)
	h.typeText("start")
	h.key(tea.KeyEnter, false)
	h.waitFor("the tool to start", func(Model) bool { return closed(probe.started) })
	h.waitView("│ working")
	return h, probe
}

func TestEnterDuringRunQueuesSteeringUntilInjected(t *testing.T) {
	h, probe := runWithGate(t, agenttest.Reply().Text("Steered.").Stop(agent.StopReasonStop))

	h.typeText("focus on tests")
	h.key(tea.KeyEnter, false)
	h.waitFor("the strip to show the item", func(m Model) bool {
		return strings.Contains(m.queue.View(), "steer") && strings.Contains(m.queue.View(), "focus on tests")
	})
	if got := h.m.input.Value(); got != "" {
		t.Fatalf("editor = %q after Enter, want it empty", got)
	}
	if strings.Contains(h.m.chat.View(), "focus on tests") {
		t.Fatal("the steering shows in the transcript before it was injected")
	}

	close(probe.release)
	h.waitView("❯ focus on tests (steer)", "Steered.")
	if q := h.m.queue.View(); q != "" {
		t.Fatalf("the strip still shows %q after injection", q)
	}
}

func TestAltEnterQueuesFollowUp(t *testing.T) {
	h, probe := runWithGate(t,
		agenttest.Reply().Text("First answer.").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("Follow-up answer.").Stop(agent.StopReasonStop))

	h.typeText("then summarise")
	h.key(tea.KeyEnter, true)
	h.waitFor("a follow-up in the strip", func(m Model) bool {
		return strings.Contains(m.queue.View(), "follow-up") && strings.Contains(m.queue.View(), "then summarise")
	})
	items := h.m.queue.Items()
	if len(items) != 1 || items[0].Kind != agent.QueueFollowUp {
		t.Fatalf("queue = %+v, want one follow-up", items)
	}
	close(probe.release)
	h.waitView("First answer.", "❯ then summarise (follow-up)", "Follow-up answer.")
}

func TestAltUpTakesQueuedItemsBack(t *testing.T) {
	h, probe := runWithGate(t, agenttest.Reply().Text("Done.").Stop(agent.StopReasonStop))

	for _, s := range []string{"first thought", "second thought"} {
		h.typeText(s)
		h.key(tea.KeyEnter, false)
	}
	h.waitFor("two items", func(m Model) bool { return len(m.queue.Items()) == 2 })

	h.typeText("draft")
	h.key(tea.KeyUp, true)
	h.waitFor("the newest back in the editor", func(m Model) bool { return len(m.queue.Items()) == 1 })
	if got, want := h.m.input.Value(), "second thought\ndraft"; got != want {
		t.Fatalf("editor = %q, want %q", got, want)
	}
	h.key(tea.KeyUp, true)
	h.waitFor("the queue to empty", func(m Model) bool { return len(m.queue.Items()) == 0 })
	if got, want := h.m.input.Value(), "first thought\nsecond thought\ndraft"; got != want {
		t.Fatalf("editor = %q, want %q", got, want)
	}
	if q := h.m.rt.State().Queue; len(q) != 0 {
		t.Fatalf("runtime queue = %+v, want it empty", q)
	}
	close(probe.release)
	h.waitView("Done.")
}

func TestEscAbortsAndKeepsQueuedItems(t *testing.T) {
	h, _ := runWithGate(t)

	h.typeText("focus on tests")
	h.key(tea.KeyEnter, false)
	h.waitFor("the item in the strip", func(m Model) bool { return len(m.queue.Items()) == 1 })

	h.key(tea.KeyEsc, false)
	h.waitView("interrupted")
	h.waitFor("the queue back in the editor", func(m Model) bool { return m.input.Value() == "focus on tests" })
	if h.m.running {
		t.Fatal("still running after the abort")
	}
	if q := h.m.rt.State().Queue; len(q) != 0 {
		t.Fatalf("runtime queue = %+v, want it moved to the editor", q)
	}
	if !strings.Contains(h.m.status.View(), "moved back to the editor") {
		t.Fatalf("status = %q, want the hint", h.m.status.View())
	}
	if !strings.Contains(h.m.View(), "✗ probe") {
		t.Fatalf("the aborted tool is not marked failed:\n%s", h.m.View())
	}
}

func TestCtrlCClearsThenQuitsAbortingTheRun(t *testing.T) {
	h, _ := runWithGate(t)
	h.typeText("half a thought")
	h.key(tea.KeyCtrlC, false)
	if got := h.m.input.Value(); got != "" {
		t.Fatalf("editor = %q after Ctrl+C, want it cleared", got)
	}
	if h.quit {
		t.Fatal("one Ctrl+C quit")
	}
	h.key(tea.KeyCtrlC, false)
	h.waitFor("quit", func(Model) bool { return h.quit })
	if h.m.rt.State().Running {
		t.Fatal("quit left the run active")
	}
}

func TestCtrlCTwiceNeedsToBeQuick(t *testing.T) {
	rt := newRuntime(t, nil)
	now := epoch
	h := newHarness(t, rt, 80, 24, func(o *Options) { o.Now = func() time.Time { return now } })
	h.key(tea.KeyCtrlC, false)
	now = now.Add(2 * quitWindow)
	h.key(tea.KeyCtrlC, false)
	h.settle()
	if h.quit {
		t.Fatal("two Ctrl+C two seconds apart quit")
	}
	h.key(tea.KeyCtrlC, false)
	h.waitFor("quit", func(Model) bool { return h.quit })
}
