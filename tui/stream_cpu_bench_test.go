package tui

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/screen"
	"github.com/steer-tui/steer/tui/theme"
)

// Issue 16's check on the TUI's streaming path: a long stream shown by the
// TUI may cost at most maxTUIOverHeadless times the CPU of the same stream
// printed headless.
const (
	cpuChunks          = 20_000
	maxTUIOverHeadless = 2.0
	// paragraphWords breaks the answer into paragraphs, as answers are: the
	// open markdown block, which the TUI re-renders, stays a paragraph long.
	paragraphWords = 40
	// lastWord ends the answer; its showing up means every delta arrived.
	lastWord = "fin."
	// outputTail is how much of the program's latest output the wait looks
	// at: the last frames, not the whole history.
	outputTail = 64 << 10
)

// longAnswer is a scripted response of cpuChunks one-word text deltas.
func longAnswer() *agenttest.Response {
	r := agenttest.Reply()
	for i := 1; i < cpuChunks; i++ {
		if i%paragraphWords == 0 {
			r.Text("\n\n")
		}
		r.Text(fmt.Sprintf("w%d ", i))
	}
	return r.Text(lastWord).Stop(agent.StopReasonStop)
}

// cpuRuntime is a runtime answering with answer; stop ends it.
func cpuRuntime(b *testing.B, answer *agenttest.Response) (rt *runner.Host, stop func()) {
	script := agenttest.NewScript(answer)
	r, err := runner.New(context.Background(), runner.Options{
		Providers: []runner.Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: script.Stream}},
		Now:       agenttest.Clock,
	})
	if err != nil {
		b.Fatal(err)
	}
	h := runner.NewHost(r)
	return h, func() {
		h.AbortWith(runner.AbortQuit)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = h.Close(ctx)
	}
}

// settledCPU collects the garbage made so far, then returns the process's
// CPU time: taken at both ends of a measurement, it charges each path for
// collecting its own garbage and neither for the other's (the TUI's render
// leaves megabytes a collection would otherwise bill to the next headless
// run, or the other way round).
func settledCPU(b *testing.B) time.Duration {
	runtime.GC()
	return cpuTime(b)
}

// cpuTime is the process's user and system time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkStreamCPU streams cpuChunks deltas from a scripted provider
// through the runtime twice: to a subscriber that prints the text as
// `steer run` does (buffered, to a discarding writer), and to the real
// program run by teatest (the bridge, Update and View for every message, the
// renderer's frames; no terminal). It reports the CPU time of each and their
// ratio, and fails when the TUI costs more than maxTUIOverHeadless times the
// headless path.
func BenchmarkStreamCPU(b *testing.B) {
	answer := longAnswer()
	var headless, shown time.Duration
	for b.Loop() {
		headless += headlessCPU(b, answer)
		shown += tuiCPU(b, answer)
	}
	ratio := float64(shown) / float64(headless)
	b.ReportMetric(float64(headless.Milliseconds())/float64(b.N), "headless-cpu-ms")
	b.ReportMetric(float64(shown.Milliseconds())/float64(b.N), "tui-cpu-ms")
	b.ReportMetric(ratio, "tui/headless")
	if ratio > maxTUIOverHeadless {
		b.Errorf("the TUI took %.1f× the headless path's CPU (%v against %v), want at most %.1f×",
			ratio, shown/time.Duration(b.N), headless/time.Duration(b.N), maxTUIOverHeadless)
	}
}

// headlessCPU is the CPU time of one long answer printed as steer run
// prints it.
func headlessCPU(b *testing.B, answer *agenttest.Response) time.Duration {
	rt, stop := cpuRuntime(b, answer)
	defer stop()
	out := bufio.NewWriter(io.Discard)
	unsubscribe := rt.Subscribe(func(ev agent.Event) {
		if u, ok := ev.(agent.MessageUpdate); ok && u.Event.Type == agent.EventTextDelta {
			out.WriteString(u.Event.Delta)
		}
	})
	defer unsubscribe()
	start := settledCPU(b)
	if _, _, err := rt.Steer(context.Background(), "hi"); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := rt.WaitForIdle(ctx); err != nil {
		b.Fatal(err)
	}
	out.Flush()
	return settledCPU(b) - start
}

// tuiCPU is the CPU time of one long answer shown by the program, from the
// prompt to the answer's last word on screen.
func tuiCPU(b *testing.B, answer *agenttest.Response) time.Duration {
	rt, stop := cpuRuntime(b, answer)
	defer stop()
	m := New(rt, Options{Theme: theme.Plain(), Profile: termenv.Ascii, Now: fixedClock})
	tm := teatest.NewTestModel(b, m, teatest.WithInitialTermSize(120, 40))
	br := startBridge(rt, tm.Send, FlushInterval, screen.RealClock)
	defer br.stop()
	m.calls.start(tm.Send)
	defer m.calls.stop(time.Second)

	start := settledCPU(b)
	tm.Type("hi")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	teatest.WaitFor(b, tm.Output(), func(out []byte) bool {
		return bytes.Contains(out[max(len(out)-outputTail, 0):], []byte(lastWord))
	}, teatest.WithDuration(time.Minute), teatest.WithCheckInterval(20*time.Millisecond))
	used := settledCPU(b) - start

	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.WaitFinished(b, teatest.WithFinalTimeout(5*time.Second))
	return used
}
