package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/msgs"
)

func TestWindowResize(t *testing.T) {
	probe := newGate("probe", "a line of output that is long enough to need truncating at sixty columns", "two")
	rt := newRuntime(t, []agent.Tool{probe},
		agenttest.Reply().Text(answer).ToolCall("call_1", "probe", `{"command":"make test"}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text("Done.").Stop(agent.StopReasonStop))
	h := newHarness(t, rt, 100, 30)
	h.typeText("a question long enough to wrap when the terminal gets narrow, which it will")
	h.key(tea.KeyEnter, false)
	h.waitFor("the tool to start", func(Model) bool { return closed(probe.started) })
	h.typeText("queued while it runs")
	h.key(tea.KeyEnter, false)
	h.waitFor("the queued item", func(m Model) bool { return len(m.queue.Items()) == 1 })

	for _, size := range [][2]int{{60, 15}, {120, 40}, {80, 24}, {61, 16}, {200, 50}, {60, 15}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			checkSize(t, h.m.View(), size[0], size[1])
			for _, want := range []string{"queued while it runs", "working", "probe"} {
				if !strings.Contains(h.m.View(), want) {
					t.Errorf("%q is missing at %dx%d:\n%s", want, size[0], size[1], h.m.View())
				}
			}
		})
	}
	close(probe.release)
	h.waitView("Done.")
	checkSize(t, h.m.View(), 60, 15)
}

func TestScrollingFollowsUnlessScrolledUp(t *testing.T) {
	var replies []*agenttest.Response
	for i := 0; i < 6; i++ {
		replies = append(replies, agenttest.Reply().Text(answer).Stop(agent.StopReasonStop))
	}
	gateCh := make(chan struct{})
	replies = append(replies, agenttest.Reply().Text("first part").Wait(gateCh).Text(" and the new tail").Stop(agent.StopReasonStop))
	rt := newRuntime(t, nil, replies...)
	h := newHarness(t, rt, 80, 20)
	for i := 0; i < 6; i++ {
		h.typeText(fmt.Sprintf("question %d", i))
		h.key(tea.KeyEnter, false)
		h.waitFor("the answer", func(m Model) bool { return !m.running && strings.Contains(m.View(), fmt.Sprintf("question %d", i)) })
	}
	h.typeText("last")
	h.key(tea.KeyEnter, false)
	h.waitView("first part")

	h.key(tea.KeyPgUp, false)
	if h.m.chat.Following() || strings.Contains(h.m.View(), "first part") {
		t.Fatalf("PgUp did not scroll up:\n%s", h.m.View())
	}
	close(gateCh)
	h.waitView("↓ new output")
	for i := 0; i < 20 && !h.m.chat.Following(); i++ {
		h.key(tea.KeyPgDown, false)
	}
	h.waitView("first part and the new tail")
	if strings.Contains(h.m.View(), "↓ new output") {
		t.Fatal("the hint stayed after scrolling back down")
	}
}

func TestMouseCaptureIsOptInAndToggles(t *testing.T) {
	var replies []*agenttest.Response
	for i := 0; i < 3; i++ {
		replies = append(replies, agenttest.Reply().Text(answer).Stop(agent.StopReasonStop))
	}
	h := newHarness(t, newRuntime(t, nil, replies...), 80, 16)
	if h.m.mouse {
		t.Fatal("mouse capture is on by default; the terminal could not select text")
	}
	for i := 0; i < 3; i++ {
		h.typeText(fmt.Sprintf("q%d", i))
		h.key(tea.KeyEnter, false)
		h.waitFor("the answer", func(m Model) bool { return !m.running && strings.Contains(m.View(), fmt.Sprintf("q%d", i)) })
	}
	h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("m"), Alt: true})
	if !h.m.mouse || !strings.Contains(h.m.status.View(), "mouse on") {
		t.Fatalf("alt+m did not turn capture on: %q", h.m.status.View())
	}
	h.send(tea.MouseMsg{Button: tea.MouseButtonWheelUp, Action: tea.MouseActionPress})
	if h.m.chat.Following() {
		t.Fatal("the wheel did not scroll up")
	}
	h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("m"), Alt: true})
	if h.m.mouse {
		t.Fatal("alt+m did not turn capture off")
	}
}

func TestProviderErrorShowsTheReason(t *testing.T) {
	rt := newRuntime(t, nil, agenttest.Reply().Text("Partial").Fail(&agent.ProviderError{
		Kind: agent.ErrorHTTP, Status: 429, Message: "rate limited: try again in 20s",
	}))
	h := newHarness(t, rt, 80, 24)
	h.typeText("hi")
	h.key(tea.KeyEnter, false)
	h.waitView("Partial", "✗ error:", "rate limited")
}

func TestQuitCommand(t *testing.T) {
	h := newHarness(t, newRuntime(t, nil), 80, 24)
	h.typeText("/quit")
	h.key(tea.KeyEnter, false)
	h.waitFor("quit", func(Model) bool { return h.quit })
}

func TestTinyTerminalsDoNotBreak(t *testing.T) {
	h, probe := runWithGate(t)
	h.typeText("queued")
	h.key(tea.KeyEnter, false)
	for _, size := range [][2]int{{30, 8}, {10, 4}, {1, 1}, {0, 0}, {60, 15}} {
		h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		_ = h.m.View()
	}
	checkSize(t, h.m.View(), 60, 15)
	close(probe.release)
}

// TestPersistWarningShowsUntilRecovered checks the warning line while saves
// fail, that the screen still fits, and that it goes on recovery.
func TestPersistWarningShowsUntilRecovered(t *testing.T) {
	h := newHarness(t, newRuntime(t, nil), 80, 24)
	h.send(msgs.NoticeArrivedMsg{Notice: runner.Notice{Kind: runner.NoticePersistError, Text: "saving the message failed: disk full"}})
	v := h.m.View()
	if !strings.Contains(v, "⚠ not saved: saving the message failed: disk full") {
		t.Fatalf("no warning line:\n%s", v)
	}
	checkSize(t, v, 80, 24)
	h.typeText("x") // keys clear hints, not the warning
	if !strings.Contains(h.m.View(), "not saved") {
		t.Fatal("a key cleared the warning")
	}
	h.send(msgs.NoticeArrivedMsg{Notice: runner.Notice{Kind: runner.NoticePersistRecovered, Text: "saving works again"}})
	if v := h.m.View(); strings.Contains(v, "not saved") {
		t.Fatalf("the warning stayed:\n%s", v)
	}
	checkSize(t, h.m.View(), 80, 24)
}
