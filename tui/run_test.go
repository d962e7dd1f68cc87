package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
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

func TestAltUpTakesQueuedItemsBackOneAtATime(t *testing.T) {
	h, probe := runWithGate(t, agenttest.Reply().Text("Done.").Stop(agent.StopReasonStop))

	for _, s := range []string{"first thought", "second thought"} {
		h.typeText(s)
		h.key(tea.KeyEnter, false)
	}
	h.waitFor("two items", func(m Model) bool { return len(m.queue.Items()) == 2 })

	h.typeText("draft")
	h.key(tea.KeyUp, true)
	h.waitFor("the newest back in the editor", func(m Model) bool {
		return len(m.queue.Items()) == 1 && m.input.Value() == "second thought\ndraft"
	})
	if !strings.Contains(h.m.input.View(), "re-sends it as steering") {
		t.Fatalf("the editor does not say what the item is sent as:\n%s", h.m.input.View())
	}
	// One at a time: a second Alt+↑ leaves the queue alone.
	h.key(tea.KeyUp, true)
	h.settle()
	if n := len(h.m.queue.Items()); n != 1 {
		t.Fatalf("a second alt+up took back more: %d left in the queue", n)
	}
	h.key(tea.KeyEnter, false)
	h.waitFor("the item re-queued", func(m Model) bool { return len(m.rt.State().Queue) == 2 && len(m.queue.Items()) == 2 })
	if it := h.m.queue.Items()[1]; it.Kind != agent.QueueSteer || it.Text != "second thought\ndraft" {
		t.Fatalf("re-sent item = %+v, want the edited text as steering", it)
	}
	close(probe.release)
	h.waitView("Done.")
}

// TestTakeBackKeepsKinds takes back a follow-up and a steering item, one at
// a time, and checks that Enter re-sends each as the kind it had.
func TestTakeBackKeepsKinds(t *testing.T) {
	h, probe := runWithGate(t, agenttest.Reply().Text("Done.").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("Followed up.").Stop(agent.StopReasonStop))
	h.typeText("steer me")
	h.key(tea.KeyEnter, false)
	h.typeText("then summarise")
	h.key(tea.KeyEnter, true)
	h.waitFor("two items", func(m Model) bool { return len(m.queue.Items()) == 2 })

	h.key(tea.KeyUp, true) // the follow-up, the newest
	h.waitFor("the follow-up in the editor", func(m Model) bool { return m.input.Value() == "then summarise" })
	if !strings.Contains(h.m.View(), "re-queues it as a follow-up") || !strings.Contains(h.m.helpLine, "enter re-queue follow-up") {
		t.Fatalf("the editor does not show the follow-up kind:\n%s", h.m.View())
	}
	h.key(tea.KeyEnter, false)
	h.waitFor("re-queued", func(m Model) bool { return len(m.rt.State().Queue) == 2 && len(m.queue.Items()) == 2 })
	kinds := map[string]agent.QueueKind{}
	for _, it := range h.m.rt.State().Queue {
		kinds[it.Text] = it.Kind
	}
	if kinds["then summarise"] != agent.QueueFollowUp || kinds["steer me"] != agent.QueueSteer {
		t.Fatalf("kinds after re-sending the follow-up = %v", kinds)
	}

	// The steering item, now not the newest, from the queue pane.
	h.key(tea.KeyTab, false)
	h.key(tea.KeyTab, false)
	h.waitFor("the queue focused", func(m Model) bool { return m.focus == focusQueue })
	h.key(tea.KeyUp, false)
	h.key(tea.KeyEnter, false)
	h.waitFor("the steering in the editor", func(m Model) bool { return m.input.Value() == "steer me" })
	if !strings.Contains(h.m.View(), "re-sends it as steering") {
		t.Fatalf("the editor does not show the steering kind:\n%s", h.m.View())
	}
	h.key(tea.KeyEnter, false)
	h.waitFor("re-queued", func(m Model) bool { return len(m.rt.State().Queue) == 2 && len(m.queue.Items()) == 2 })
	for _, it := range h.m.rt.State().Queue {
		kinds[it.Text] = it.Kind
	}
	if kinds["then summarise"] != agent.QueueFollowUp || kinds["steer me"] != agent.QueueSteer {
		t.Fatalf("kinds after re-sending both = %v", kinds)
	}
	close(probe.release)
	h.waitView("❯ steer me (steer)", "❯ then summarise (follow-up)", "Followed up.")
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
	// Quitting starts on the key itself (handleQuit), while the QuitMsg it
	// leads to arrives only after the run has wound down: the model's flag
	// is what one press must leave unset.
	if h.m.quitting {
		t.Fatal("one Ctrl+C quit")
	}
	if !h.m.rt.State().Running {
		t.Fatal("one Ctrl+C ended the run")
	}
	h.key(tea.KeyCtrlC, false)
	h.waitFor("quit", func(Model) bool { return h.quit })
	if h.m.rt.State().Running {
		t.Fatal("quit left the run active")
	}
	if got := lastError(h.m.rt); got != runner.AbortQuit {
		t.Fatalf("the aborted marker says %q, want %q", got, runner.AbortQuit)
	}
}

// lastError returns the error message of the last assistant message.
func lastError(rt Runtime) string {
	msgs := rt.State().Messages
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == agent.RoleAssistant {
			return msgs[i].ErrorMessage
		}
	}
	return ""
}

func TestQuitCommandAbortsTheRunForQuitting(t *testing.T) {
	h, _ := runWithGate(t)
	h.typeText("/quit")
	h.key(tea.KeyEnter, false)
	h.waitFor("quit", func(Model) bool { return h.quit })
	if h.m.rt.State().Running {
		t.Fatal("/quit left the run active")
	}
	if got := lastError(h.m.rt); got != runner.AbortQuit {
		t.Fatalf("the aborted marker says %q, want %q", got, runner.AbortQuit)
	}
}

// TestCtrlCHintClearsAfterASecond checks the quit hint goes away by itself
// (status_test checks that an old hint's expiry leaves a newer one).
func TestCtrlCHintClearsAfterASecond(t *testing.T) {
	h := newHarness(t, newRuntime(t, nil), 80, 24)
	start := time.Now()
	h.key(tea.KeyCtrlC, false)
	if !strings.Contains(h.m.status.View(), "again to quit") {
		t.Fatalf("no hint: %q", h.m.status.View())
	}
	h.waitFor("the hint to clear", func(m Model) bool { return !strings.Contains(m.status.View(), "again to quit") })
	if took := time.Since(start); took < quitWindow/2 {
		t.Fatalf("the hint cleared after %v, before its second", took)
	}
}

func TestCtrlCTwiceNeedsToBeQuick(t *testing.T) {
	rt := newRuntime(t, nil)
	now := epoch
	h := newHarness(t, rt, 80, 24, func(o *Options) { o.Now = func() time.Time { return now } })
	h.key(tea.KeyCtrlC, false)
	now = now.Add(2 * quitWindow)
	h.key(tea.KeyCtrlC, false)
	if h.m.quitting {
		t.Fatal("two Ctrl+C two seconds apart quit")
	}
	h.key(tea.KeyCtrlC, false)
	h.waitFor("quit", func(Model) bool { return h.quit })
}

// TestEscTakesBackSteeringAndKeepsFollowUps: steering was meant for the run
// just interrupted and comes back into the editor as steering; a follow-up
// keeps its kind and its place in the queue.
func TestEscTakesBackSteeringAndKeepsFollowUps(t *testing.T) {
	h, _ := runWithGate(t)
	h.typeText("focus on tests")
	h.key(tea.KeyEnter, false)
	h.typeText("then summarise")
	h.key(tea.KeyEnter, true)
	h.waitFor("both queued", func(m Model) bool { return len(m.queue.Items()) == 2 })

	h.key(tea.KeyEsc, false)
	h.waitFor("the steering back in the editor", func(m Model) bool { return m.input.Value() == "focus on tests" })
	if k := h.m.input.Holding(); k != agent.QueueSteer {
		t.Fatalf("the editor holds a %q item, want steering", k)
	}
	q := h.m.rt.State().Queue
	if len(q) != 1 || q[0].Text != "then summarise" || q[0].Kind != agent.QueueFollowUp {
		t.Fatalf("queue after the interruption = %+v, want the follow-up alone", q)
	}
	if v := h.m.status.View(); !strings.Contains(v, "1 follow-up still queued") {
		t.Fatalf("status = %q, want the follow-up said to stay", v)
	}
}
