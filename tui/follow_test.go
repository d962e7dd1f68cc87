package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// manyLines is an answer longer than the screen.
func manyLines(prefix string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s line %d\n\n", prefix, i)
	}
	return b.String()
}

// TestTranscriptFollowsWhateverHasFocus streams output while the transcript
// and then the queue strip have the focus: the newest output stays in view.
func TestTranscriptFollowsWhateverHasFocus(t *testing.T) {
	more, last := make(chan struct{}), make(chan struct{})
	probe := newGate("probe", "one")
	close(probe.release)
	rt := newRuntime(t, []agent.Tool{probe},
		agenttest.Reply().ToolCall("call_1", "probe", `{}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text(manyLines("first", 20)).Wait(more).
			Text(manyLines("second", 5)+"\n\nSECOND DONE").Wait(last).
			Text("\n\nTHE END").Stop(agent.StopReasonStop))
	h := newHarness(t, rt, 80, 24)
	h.typeText("go")
	h.key(tea.KeyEnter, false)
	h.waitView("first line 20")

	h.key(tea.KeyTab, false) // the transcript
	if h.m.focus != focusChat {
		t.Fatal("tab did not focus the transcript")
	}
	if !strings.Contains(h.m.View(), "first line 20") {
		t.Fatalf("focusing the transcript moved the view:\n%s", h.m.View())
	}
	close(more)
	h.waitView("SECOND DONE")

	h.typeText("queued note") // goes to the editor, which takes the focus
	h.key(tea.KeyEnter, false)
	h.waitFor("the note queued", func(m Model) bool { return len(m.queue.Items()) == 1 })
	h.key(tea.KeyTab, false)
	h.key(tea.KeyTab, false)
	if h.m.focus != focusQueue {
		t.Fatalf("focus = %v, want the queue", h.m.focus)
	}
	close(last)
	h.waitView("THE END")
}

// TestEscInAPaneReturnsToTheEditorFirst: Esc in the transcript or the queue
// brings the focus back; only Esc in the editor interrupts.
func TestEscInAPaneReturnsToTheEditorFirst(t *testing.T) {
	h, _ := runWithGate(t)
	h.typeText("queued")
	h.key(tea.KeyEnter, false)
	h.waitFor("an item queued", func(m Model) bool { return len(m.queue.Items()) == 1 })
	for _, tabs := range []int{1, 2} {
		for i := 0; i < tabs; i++ {
			h.key(tea.KeyTab, false)
		}
		pane := h.m.focus
		if !strings.Contains(h.m.helpLine, "esc to editor, again to interrupt") {
			t.Fatalf("pane %v: the help line does not say what esc does: %q", pane, h.m.helpLine)
		}
		h.key(tea.KeyEsc, false)
		h.settle()
		if h.m.focus != focusInput || !h.m.running || h.m.aborting {
			t.Fatalf("esc in pane %v: focus %v, running %v, aborting %v", pane, h.m.focus, h.m.running, h.m.aborting)
		}
	}
	h.key(tea.KeyEsc, false)
	h.waitView("interrupted")
}
