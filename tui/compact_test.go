package tui

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
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
	if v := h.m.View(); strings.Contains(v, "compacting") {
		t.Fatalf("the status line still says compacting:\n%s", v)
	}
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
	if v := h.m.View(); strings.Contains(v, "compacting") {
		t.Fatalf("the status line still says compacting:\n%s", v)
	}
	msgs := rt.State().Messages
	if len(msgs) != 3 || !contextguard.IsSummary(msgs[0]) || msgs[1].TextContent() != "second" {
		t.Fatalf("want the summary and the last turn, got %d messages opening with %q", len(msgs), msgs[0].TextContent())
	}
}

// TestCompactDoesNotHoldTheInputPath: while /compact waits for its summary
// (a model that never answers), typing shows in the editor at once and
// /profiles opens; Esc cancels the compaction and the transcript is the one
// before it.
func TestCompactDoesNotHoldTheInputPath(t *testing.T) {
	summarising := make(chan struct{})
	script := agenttest.NewScript(reply("one"), reply("two"), agenttest.Reply().Hang())
	rt, err := runner.New(context.Background(), runner.Options{
		Providers: []runner.Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: agenttest.StartedAt(script.Stream, 3, summarising)}},
		Now:       agenttest.Clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, runner.NewHost(rt), 100, 30)
	for i, p := range []string{"first", "second"} {
		h.command(p)
		h.waitFor("the answer", func(m Model) bool {
			st := rt.State()
			return !st.Running && len(st.Messages) == 2*(i+1) && !m.running
		})
	}
	before := transcriptTexts(rt.State().Messages)
	h.command("/compact")
	<-summarising
	h.command("/profiles")
	h.waitFor("the profiles to load", func(m Model) bool { return m.inspecting && !m.inspectPending })
	h.waitView("Auth profiles")
	h.key(tea.KeyEsc, false) // closes the inspector
	h.waitFor("the inspector to close", func(m Model) bool { return !m.inspecting })
	h.typeText("typed meanwhile")
	if v := h.m.View(); !strings.Contains(v, "typed meanwhile") || !strings.Contains(v, "compacting") {
		t.Fatalf("the typed text or the compaction's state is not in the view:\n%s", v)
	}
	if h.m.compaction == nil {
		t.Fatal("the compaction ended before Esc")
	}
	h.key(tea.KeyEsc, false)
	h.waitView("compaction (manual) cancelled")
	h.waitFor("the compaction to end", func(m Model) bool { return m.compaction == nil })
	if v := h.m.View(); strings.Contains(v, "compacting") {
		t.Fatalf("the status line still says compacting:\n%s", v)
	}
	if got := transcriptTexts(rt.State().Messages); strings.Join(got, "|") != strings.Join(before, "|") {
		t.Fatalf("the cancelled compaction changed the transcript: %q, want %q", got, before)
	}
	if v := h.m.input.Value(); v != "typed meanwhile" {
		t.Fatalf("editor = %q, want the text typed meanwhile", v)
	}
}

// transcriptTexts is the text of each message, to compare transcripts.
func transcriptTexts(ms []agent.Message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = string(m.Role) + ":" + m.TextContent()
	}
	return out
}
