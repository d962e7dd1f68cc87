package tui

import (
	"context"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/persistence"
)

// storedRuntime is a host on the state directory dir in workspace /ws, as
// a steer process has it; the test's end closes it, then the store.
func storedRuntime(t *testing.T, dir string, responses ...*agenttest.Response) *runner.Host {
	t.Helper()
	store, err := persistence.Open(dir, persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rt, err := runner.New(context.Background(), runner.Options{
		Providers: []runner.Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: agenttest.NewScript(responses...).Stream}},
		Store:     store, Workspace: "/ws", Now: agenttest.Clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	h := runner.NewHost(rt)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		h.AbortWith(runner.AbortQuit)
		_ = h.WaitForIdle(ctx)
		_ = h.Close(ctx)
		_ = store.Close()
	})
	return h
}

// TestHistoryAcrossProcesses: three prompts sent in one steer are walked
// and searched in the next one started in the workspace.
func TestHistoryAcrossProcesses(t *testing.T) {
	dir := t.TempDir()
	first := newHarness(t, storedRuntime(t, dir,
		agenttest.Reply().Text("one").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("two").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("three").Stop(agent.StopReasonStop)), 80, 24)
	for _, p := range []string{"first prompt", "second prompt", "third prompt"} {
		first.typeText(p)
		first.key(tea.KeyEnter, false)
		first.waitFor("the answer to "+p, func(m Model) bool { return !m.running && m.settled() })
	}

	next := newHarness(t, storedRuntime(t, dir), 80, 24)
	next.waitFor("the history", Model.settled)
	next.key(tea.KeyUp, false)
	next.key(tea.KeyUp, false)
	if got := next.m.input.Value(); got != "second prompt" {
		t.Fatalf("up up shows %q, want the second prompt", got)
	}
	next.key(tea.KeyDown, false)
	next.key(tea.KeyDown, false)
	next.send(tea.KeyMsg{Type: tea.KeyCtrlR})
	next.typeText("sec")
	next.waitView("(reverse-i-search)`sec': second prompt", "enter use match")
	checkGolden(t, next, 80, 24)
	next.key(tea.KeyEnter, false)
	if got := next.m.input.Value(); got != "second prompt" {
		t.Fatalf("enter took %q, want the second prompt", got)
	}
}

// TestRecalledItemsKeepTheirKind: while a run is active, a recalled
// follow-up is queued as a follow-up and recalled steering as steering.
func TestRecalledItemsKeepTheirKind(t *testing.T) {
	h, probe := runWithGate(t)
	defer close(probe.release)
	h.typeText("focus on tests")
	h.key(tea.KeyEnter, false)
	h.typeText("then the docs")
	h.key(tea.KeyEnter, true)
	h.waitFor("two queued", func(m Model) bool { return len(m.queue.Items()) == 2 })

	h.key(tea.KeyUp, false) // the follow-up
	h.key(tea.KeyEnter, false)
	h.key(tea.KeyUp, false)
	h.key(tea.KeyUp, false)
	h.key(tea.KeyUp, false) // the steering: the follow-up just sent is the newest now
	if got := h.m.input.Value(); got != "focus on tests" {
		t.Fatalf("up up up shows %q", got)
	}
	h.key(tea.KeyEnter, false)
	h.waitFor("four queued", func(m Model) bool { return len(m.queue.Items()) == 4 })
	var kinds []agent.QueueKind
	for _, it := range h.m.queue.Items() {
		kinds = append(kinds, it.Kind)
	}
	counts := map[agent.QueueKind]int{}
	for _, k := range kinds {
		counts[k]++
	}
	if counts[agent.QueueSteer] != 2 || counts[agent.QueueFollowUp] != 2 {
		t.Fatalf("queued %v, want two of each kind", kinds)
	}
}
