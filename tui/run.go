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
)

// Run shows the TUI until the user quits or ctx is cancelled. It owns the
// terminal for that time: alternate screen, raw input, mouse when asked.
//
// Before returning it makes sure no run is left active (an active run is
// aborted and given a moment to end) and prints, on opts.Unsent, whatever
// the user typed or queued but never sent, so that nothing typed is lost.
// A cancelled ctx returns ctx's error.
func Run(ctx context.Context, rt Runtime, opts Options) error {
	m := New(rt, opts)
	popts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithAltScreen()}
	if opts.Input != nil {
		popts = append(popts, tea.WithInput(opts.Input))
	}
	if opts.Output != nil {
		popts = append(popts, tea.WithOutput(opts.Output))
	}
	p := tea.NewProgram(m, popts...)
	b := startBridge(rt, p.Send, FlushInterval)
	final, err := p.Run()
	b.stop()

	if rt.State().Running {
		rt.Abort()
		wctx, cancel := context.WithTimeout(context.Background(), quitWait)
		_ = rt.WaitForIdle(wctx)
		cancel()
	}
	unsent := leftovers(final, rt)
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
