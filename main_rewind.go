package main

import (
	"fmt"
	"io"
	"os"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/config"
	"github.com/steer-tui/steer/agent/runner/headless"
)

// rewindCommand is `steer rewind`, which needs only the state directory:
// the session names its workspace.
func rewindCommand(o headless.Args, stdout, stderr io.Writer) int {
	stateDir, err := config.StateDir(o.StateDir, os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "steer: cannot read the working directory: %v\n", err)
		return exitUsage
	}
	sig := runner.CatchSignals()
	defer sig.Stop()
	return headless.Rewind(sig.Context(), headless.RewindOptions{StateDir: stateDir, Session: o.Session, Dir: cwd,
		Args: o.Rewind, JSON: o.JSON}, stdout, stderr)
}

// sayInterruptedRewind warns, at the start of a headless command, of a
// restore of the workspace that steer did not finish: until it is finished
// or rolled back the workspace may be half restored, and mutating tools
// are refused.
func sayInterruptedRewind(rt *runner.Runtime, stderr io.Writer) {
	in, ok, err := rt.InterruptedRewind()
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "steer: warning: %v\n", err)
	case ok:
		fmt.Fprintf(stderr, "steer: warning: a rewind of session %s was cut short (%d files); no tool changes the workspace until "+
			"'steer rewind --session %s --resume finish' (or --resume rollback) completes it\n", in.Session, in.Files, in.Session)
	}
}
