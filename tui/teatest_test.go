package tui

import (
	"bytes"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/failover"
	"github.com/steer-tui/steer/tui/screen"
	"github.com/steer-tui/steer/tui/theme"
)

// startProgram runs the real program headless on rt, with the bridge
// feeding it, at 80×24.
func startProgram(t *testing.T, rt Runtime) *teatest.TestModel {
	t.Helper()
	return startProgramAt(t, rt, &fakeClock{t: epoch})
}

// startProgramAt is startProgram on clock clk, which the test moves, with
// opts changing its options.
func startProgramAt(t *testing.T, rt Runtime, clk *fakeClock, opts ...func(*Options)) *teatest.TestModel {
	t.Helper()
	o := Options{Theme: theme.Plain(), Profile: termenv.Ascii, Now: clk.Now}
	for _, f := range opts {
		f(&o)
	}
	m := New(rt, o)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24))
	b := startBridge(rt, tm.Send, FlushInterval, screen.RealClock)
	t.Cleanup(b.stop)
	w := startMCPWatch(rt, tm.Send)
	t.Cleanup(w.stop)
	m.calls.start(tm.Send)
	t.Cleanup(func() { m.calls.stop(time.Second) })
	return tm
}

func waitOutput(t *testing.T, tm *teatest.TestModel, texts ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(out []byte) bool {
		for _, s := range texts {
			if !bytes.Contains(out, []byte(s)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

func quit(t *testing.T, tm *teatest.TestModel) Model {
	t.Helper()
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	return tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(Model)
}

func TestProgramStreamsAndSteers(t *testing.T) {
	first, second := make(chan struct{}), make(chan struct{})
	probe := newGate("probe", "step one", "step two")
	rt := newRuntime(t, []agent.Tool{probe},
		agenttest.Reply().Text("Hello").Wait(first).Text(", world.").ToolCall("call_1", "probe", `{}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text("Steering noted.").Wait(second).Stop(agent.StopReasonStop))
	tm := startProgram(t, rt)

	tm.Type("hi")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitOutput(t, tm, "❯ hi", "Hello")
	close(first)
	waitOutput(t, tm, "Hello, world.", "│ step two")

	tm.Type("focus")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitOutput(t, tm, "steer     › focus")
	close(probe.release)
	waitOutput(t, tm, "❯ focus (steer)", "Steering noted.")
	close(second)

	final := quit(t, tm)
	view := final.View()
	for _, want := range []string{"Hello, world.", "✓ probe", "❯ focus (steer)", "Steering noted."} {
		if !strings.Contains(view, want) {
			t.Errorf("final view lacks %q:\n%s", want, view)
		}
	}
	if len(final.queue.Items()) != 0 {
		t.Errorf("queue = %+v, want empty", final.queue.Items())
	}
}

func TestProgramResizes(t *testing.T) {
	rt := newRuntime(t, nil, agenttest.Reply().Text(answer).Stop(agent.StopReasonStop))
	tm := startProgram(t, rt)
	tm.Type("hi")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitOutput(t, tm, "one test sleeps")
	tm.Send(tea.WindowSizeMsg{Width: 60, Height: 15})
	final := quit(t, tm)
	checkSize(t, final.View(), 60, 15)
}

// TestProgramInspectors: the real program after a run that rotated: each
// inspector opens over the transcript and Esc closes it.
func TestProgramInspectors(t *testing.T) {
	clock := &fakeClock{t: epoch}
	rt := rotationRuntime(t, clock, &failover.MemLedger{})
	tm := startProgram(t, rt)
	tm.Type("hello")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitOutput(t, tm, "answered by test:b", "test:b")
	for _, c := range []struct{ command, want string }{
		{"/profiles", "cooldown until"},
		{"/engines", "active: legacy"},
		{"/trace", "rotate_profile"},
	} {
		tm.Type(c.command)
		tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
		waitOutput(t, tm, c.want)
		tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	}
	final := quit(t, tm)
	if final.inspecting || !strings.Contains(final.View(), "answered by test:b") {
		t.Fatalf("an inspector stayed open:\n%s", final.View())
	}
}
