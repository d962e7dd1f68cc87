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
	"github.com/steer-tui/steer/tui/pasteread"
	"github.com/steer-tui/steer/tui/screen"
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
// Before returning, Run prints on opts.Unsent whatever the user typed but
// never sent, so that nothing typed is lost, and how many queued inputs stay
// saved with the session for when it is resumed.
func Run(ctx context.Context, rt Runtime, opts Options) error {
	m := New(rt, opts)
	in := opts.Input
	if in == nil {
		in = os.Stdin
	}
	var out io.Writer = os.Stdout
	if opts.Output != nil {
		out = opts.Output
	}
	// Pastes reach the program through the reader, which is read only
	// once p runs.
	var p *tea.Program
	pastes, err := pasteread.New(in, func(msg tea.Msg) { p.Send(msg) })
	if err != nil {
		return fmt.Errorf("reading the terminal: %w", err)
	}
	defer pastes.Cancel()
	// Bubble Tea's renderer would wake up 60 times a second for as long as
	// the program runs; the screen draws only what changed (tui/screen).
	// Without its renderer Bubble Tea leaves the terminal alone: the screen
	// sets its modes, and the size comes from WatchSize.
	scr, err := screen.Open(in, out, screen.Options{Sync: opts.Terminal.SyncOutput, ReportFocus: opts.Terminal.Notifier.Enabled()})
	if err != nil {
		return err
	}
	defer scr.Close(false) // a panic's way out; Close is done once
	p = tea.NewProgram(framed{Model: m, screen: scr, pastes: pastes, in: in, out: out}, tea.WithContext(ctx), tea.WithoutRenderer(),
		tea.WithoutSignalHandler(), tea.WithInput(pastes.Input()))
	stopSize := screen.WatchSize(out, func(w, h int) { p.Send(tea.WindowSizeMsg{Width: w, Height: h}) })
	b := startBridge(rt, p.Send, FlushInterval, screen.RealClock)
	mw := startMCPWatch(rt, p.Send)
	m.calls.start(p.Send)
	final, err := p.Run()
	stopSize()
	// Quitting shows the last frame; a cancelled or failed program does not.
	if cerr := scr.Close(err == nil); err == nil {
		err = cerr
	}
	b.stop()
	mw.stop()
	unsent := m.calls.stop(callsStopWait)

	if ctx.Err() == nil {
		// Whatever ended the program (a quit has done this already), no
		// run goes on without a screen: do what quitting does.
		rt.AbortWith(runner.AbortQuit)
		wctx, cancel := context.WithTimeout(context.Background(), quitWait)
		_ = rt.WaitForIdle(wctx)
		cancel()
	}
	unsent = append(append(editorText(final), unsent...), heldText(final)...)
	w := opts.Unsent
	if w == nil {
		w = os.Stderr
	}
	if len(unsent) > 0 {
		printUnsent(w, unsent)
	}
	if st := rt.State(); len(st.Queue) > 0 {
		fmt.Fprintf(w, "steer: %s stay saved in session %s, in its queue again when you resume it (`steer --session %s`)\n",
			plural(len(st.Queue), "queued input"), st.SessionID, st.SessionID)
	}
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// callsStopWait bounds how long Run waits for a runtime call in flight when
// the program ends.
const callsStopWait = time.Second

// editorText is what the editor held when the program ended: typed, never
// sent. Queued items are not taken: they stay saved with their session, as
// after a signal or a crash, and are sent when it is resumed.
func editorText(final tea.Model) []string {
	if fm, ok := final.(framed); ok {
		if text := strings.TrimSpace(fm.input.Text()); text != "" {
			return []string{text}
		}
	}
	return nil
}

// heldText is the slash commands held for a run's end that never ran.
func heldText(final tea.Model) []string {
	if fm, ok := final.(framed); ok {
		return fm.heldText()
	}
	return nil
}

func printUnsent(w io.Writer, texts []string) {
	fmt.Fprintf(w, "steer: input not sent (%s):\n", time.Now().Format("15:04:05"))
	for _, t := range texts {
		fmt.Fprintf(w, "  %s\n", strings.ReplaceAll(t, "\n", "\n  "))
	}
}
