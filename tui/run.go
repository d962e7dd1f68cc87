package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent/runner"
)

// Run shows the TUI until the user quits or ctx is cancelled. It owns the
// terminal for that time: alternate screen, raw input, mouse when asked.
//
// Run installs no signal handler: main cancels ctx on SIGINT, SIGTERM and
// SIGHUP. Then the program ends at once and the terminal is restored (the
// alternate screen left), and Run returns ctx's error without touching an
// active run, which main aborts with the signal's reason
// (runner.AbortSignal) before waiting for the runtime to be idle. When the
// user quits, the active run is aborted (runner.AbortQuit) and given a
// moment to end before Run returns.
//
// Before returning, Run prints on opts.Unsent whatever the user typed or
// queued but never sent, so that nothing typed is lost.
func Run(ctx context.Context, rt Runtime, opts Options) error {
	m := New(rt, opts)
	popts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithAltScreen(), tea.WithoutSignalHandler()}
	if opts.Input != nil {
		popts = append(popts, tea.WithInput(opts.Input))
	}
	if opts.Output != nil {
		popts = append(popts, tea.WithOutput(opts.Output))
	}
	p := tea.NewProgram(m, popts...)
	b := startBridge(rt, p.Send, FlushInterval)
	m.calls.start(p.Send)
	final, err := p.Run()
	b.stop()
	unsent := m.calls.stop(callsStopWait)

	if ctx.Err() == nil {
		// Whatever ended the program (a quit has done this already), no
		// run goes on without a screen: do what quitting does.
		rt.AbortWith(runner.AbortQuit)
		wctx, cancel := context.WithTimeout(context.Background(), quitWait)
		_ = rt.WaitForIdle(wctx)
		cancel()
	}
	unsent = append(leftovers(final, rt), unsent...)
	if len(unsent) > 0 {
		w := opts.Unsent
		if w == nil {
			w = os.Stderr
		}
		printUnsent(w, unsent)
	}
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// callsStopWait bounds how long Run waits for a runtime call in flight when
// the program ends.
const callsStopWait = time.Second

// leftovers collects the editor's text and the queued items, which are
// taken out of the queue so that nothing runs them after the screen closed.
func leftovers(final tea.Model, rt Runtime) []string {
	var out []string
	if fm, ok := final.(Model); ok {
		if text := strings.TrimSpace(fm.input.Value()); text != "" {
			out = append(out, text)
		}
	}
	items, _ := rt.Dequeue("")
	for _, it := range items {
		out = append(out, it.Text)
	}
	return out
}

func printUnsent(w io.Writer, texts []string) {
	fmt.Fprintf(w, "steer: input not sent (%s):\n", time.Now().Format("15:04:05"))
	for _, t := range texts {
		fmt.Fprintf(w, "  %s\n", strings.ReplaceAll(t, "\n", "\n  "))
	}
}
