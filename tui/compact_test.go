package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/contextguard"
)

// TestCompactCommand: /compact summarises the older history; the transcript
// gets a notice and the runtime's transcript opens with the summary.
func TestCompactCommand(t *testing.T) {
	long := func(s string) *agenttest.Response {
		return agenttest.Reply().Text(s + strings.Repeat(" lorem ipsum", 4000)).Stop(agent.StopReasonStop)
	}
	rt := newRuntime(t, nil, long("one"), long("two"), long("three"),
		agenttest.Reply().Text("## Goal\nthe summary").Stop(agent.StopReasonStop))
	h := newHarness(t, rt, 100, 30)
	for i, p := range []string{"first", "second", "third"} {
		h.typeText(p)
		h.key(tea.KeyEnter, false)
		h.waitFor("the answer", func(m Model) bool {
			st := rt.State()
			return !st.Running && len(st.Messages) == 2*(i+1) && !m.running
		})
	}
	h.typeText("/compact keep the numbers")
	h.key(tea.KeyEnter, false)
	h.waitView("⟲ compacted: ")
	h.waitFor("the compaction to end", func(m Model) bool { return m.compaction == nil })
	if msgs := rt.State().Messages; !contextguard.IsSummary(msgs[0]) {
		t.Fatalf("the transcript does not open with the summary: %q", msgs[0].TextContent())
	}
}

// TestCompactSmallSession: /compact on a session far smaller than the kept
// tail still summarises it, keeping the last turn, and says "compacted".
func TestCompactSmallSession(t *testing.T) {
	rt := newRuntime(t, nil,
		agenttest.Reply().Text("one").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("two").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("## Goal\nthe summary").Stop(agent.StopReasonStop))
	h := newHarness(t, rt, 100, 30)
	for i, p := range []string{"first", "second"} {
		h.typeText(p)
		h.key(tea.KeyEnter, false)
		h.waitFor("the answer", func(m Model) bool {
			st := rt.State()
			return !st.Running && len(st.Messages) == 2*(i+1) && !m.running
		})
	}
	h.typeText("/compact")
	h.key(tea.KeyEnter, false)
	h.waitView("⟲ compacted: ")
	h.waitFor("the compaction to end", func(m Model) bool { return m.compaction == nil })
	msgs := rt.State().Messages
	if len(msgs) != 3 || !contextguard.IsSummary(msgs[0]) || msgs[1].TextContent() != "second" {
		t.Fatalf("want the summary and the last turn, got %d messages opening with %q", len(msgs), msgs[0].TextContent())
	}
}

// TestCompactRefusedWhileRunning: /compact during a run says why not.
func TestCompactRefusedWhileRunning(t *testing.T) {
	release := make(chan struct{})
	rt := newRuntime(t, nil, agenttest.Reply().Text("working").Wait(release).Stop(agent.StopReasonStop))
	h := newHarness(t, rt, 100, 30)
	h.typeText("go")
	h.key(tea.KeyEnter, false)
	h.waitFor("the run", func(m Model) bool { return m.running })
	h.typeText("/compact")
	h.key(tea.KeyEnter, false)
	h.waitView("wait for it to end")
	close(release)
}
