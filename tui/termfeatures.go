package tui

import (
	"os"
	"os/exec"
	"runtime"

	"github.com/steer-tui/steer/tui/term"
)

// terminalFeatures decides, before the program owns the terminal, what it
// does beyond drawing: how to notify (the environment names the terminal),
// which system clipboard tool to use, and whether frames are synchronized,
// which asks the terminal (DECRQM 2026, at most term.SyncTimeout) unless
// ui.syncOutput turned it off. The question is asked here, once, because
// nothing may read the terminal once Bubble Tea does; an answer later than
// the timeout reaches the program as an unknown sequence, which it drops.
func terminalFeatures(o TerminalOptions) TerminalFeatures {
	f := TerminalFeatures{Notifier: term.DetectNotifier(o.Notifications, os.Getenv)}
	f.Clipboard, _ = term.FindSystemClipboard(runtime.GOOS, os.Getenv, exec.LookPath)
	if !o.NoSyncOutput && os.Getenv("TERM") != "dumb" {
		f.SyncOutput = term.AskSync(term.SyncTimeout)
	}
	return f
}
