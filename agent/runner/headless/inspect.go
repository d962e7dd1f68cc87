package headless

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/inspector"
)

// InspectOptions are the arguments of `steer inspect NAME`: which
// inspector (NAME, one of inspector.All's), how to print it, what to clear
// first, and what of the configuration its view needs.
type InspectOptions struct {
	StateDir string // config.StateDir
	Name     string
	JSON     bool
	// Clear names the row whose target to clear first (a profile's
	// cooldown, an engine's quarantine), for every steer process: they
	// share the state directory.
	Clear string
	// Saved is the configuration the views need (the profiles and
	// --profile, the engines, the clock); its State is opened here.
	Saved inspector.Saved
}

// Inspect is `steer inspect NAME`: the inspector's view read from the state
// directory's database (never a running runtime's), printed as its table or
// as JSON, after a clear with --clear.
func Inspect(ctx context.Context, o InspectOptions, stdout, stderr io.Writer) int {
	ins, ok := inspector.Lookup(o.Name)
	if !ok {
		fmt.Fprintf(stderr, "steer: unknown inspector %q\n", o.Name)
		return ExitUsage
	}
	state, err := runner.OpenStateView(o.StateDir, runner.StateViewOptions{})
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return ExitUsage
	}
	defer state.Close()
	saved := o.Saved
	saved.State = state
	if o.Clear != "" {
		if code := clear(ctx, ins, saved, o, stdout, stderr); code != ExitOK {
			return code
		}
	}
	v, err := ins.ReadSaved(ctx, saved)
	if err != nil {
		return inspectFailure(err, stderr)
	}
	if o.JSON {
		return writeJSON(stdout, stderr, ins.JSON(v))
	}
	ins.Print(stdout, v, saved.Now)
	return ExitOK
}

// clear is --clear TARGET, as the inspector's clear key does in the TUI.
func clear(ctx context.Context, ins *inspector.Inspector, saved inspector.Saved, o InspectOptions, stdout, stderr io.Writer) int {
	c := ins.Clear()
	if c == nil {
		fmt.Fprintf(stderr, "steer: %s\n", clearOnly)
		return ExitUsage
	}
	if err := c.Saved(ctx, saved, o.Clear); err != nil {
		return inspectFailure(err, stderr)
	}
	if !o.JSON {
		past := c.Past()
		fmt.Fprintf(stdout, "%s %s.\n", strings.ToUpper(past[:1])+past[1:], c.Object(o.Clear))
	}
	return ExitOK
}

// inspectFailure says why a read or a clear failed; a refusal of how it
// was asked is a usage error.
func inspectFailure(err error, stderr io.Writer) int {
	fmt.Fprintf(stderr, "steer: %v\n", err)
	var usage *inspector.UsageError
	if errors.As(err, &usage) {
		return ExitUsage
	}
	return ExitFailed
}
