package headless

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/steer-tui/steer/agent/runner"
)

// InspectEngines is `steer inspect engines`.
const InspectEngines = "engines"

// EnginesOptions are the arguments of `steer inspect engines`.
type EnginesOptions struct {
	StateDir string
	// Selected is agent.contextEngine ("" is the built-in engine);
	// Configured the contextEngines of the configuration.
	Selected   string
	Configured []runner.EngineRef
	JSON       bool
	// Clear names an engine whose quarantine to lift.
	Clear string
}

// ShowEngines prints the context engines: the one that answers, every
// configured one, and the quarantines the shared database holds. It reads
// the database and never starts an engine. With Clear it lifts that
// engine's quarantine first (for every steer process: they read it from the
// database on each call).
func ShowEngines(ctx context.Context, o EnginesOptions, stdout, stderr io.Writer) int {
	store, err := runner.OpenStateView(o.StateDir, runner.StateViewOptions{})
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return ExitUsage
	}
	defer store.Close()
	if o.Clear != "" {
		had, err := store.ClearQuarantine(ctx, o.Clear)
		if err != nil {
			fmt.Fprintf(stderr, "steer: clearing the quarantine of %s: %v\n", o.Clear, err)
			return ExitFailed
		}
		if !had {
			fmt.Fprintf(stderr, "steer: %v\n", &runner.NotQuarantinedError{Engine: o.Clear})
			return ExitUsage
		}
		if !o.JSON {
			fmt.Fprintf(stdout, "Cleared the quarantine of %s.\n", o.Clear)
		}
	}
	v, err := store.Engines(ctx, o.Selected, o.Configured)
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return ExitFailed
	}
	return showEngines(v, o.JSON, stdout, stderr)
}

func showEngines(v runner.EnginesView, asJSON bool, stdout, stderr io.Writer) int {
	if asJSON {
		return writeJSON(stdout, stderr, v)
	}
	fmt.Fprintf(stdout, "Active context engine: %s", v.Active)
	if v.Active != v.Selected {
		fmt.Fprintf(stdout, " (%s is quarantined)", v.Selected)
	}
	fmt.Fprintln(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "\nENGINE\tKIND\tSELECTED\tSTATE\tCOMMAND")
	for _, e := range v.Engines {
		state := "ok"
		if e.Quarantined {
			state = "quarantined"
		}
		fmt.Fprintf(tw, "%s\t%s\t%v\t%s\t%s\n", e.Name, e.Kind, e.Selected, state, orDash(strings.Join(e.Command, " ")))
	}
	tw.Flush()
	if len(v.Quarantines) == 0 {
		fmt.Fprintln(stdout, "\nNo quarantines.")
		return ExitOK
	}
	tw = tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "\nQUARANTINED\tMETHOD\tREASON\tCOUNT\tSINCE\tERROR")
	for _, q := range v.Quarantines {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", q.Engine, q.Method, q.Reason, q.Count,
			q.Since.Local().Format("2006-01-02 15:04:05"), oneLine(q.Error, 80))
	}
	tw.Flush()
	fmt.Fprintln(stdout, "\n'steer inspect engines --clear NAME' lifts a quarantine.")
	return ExitOK
}

// oneLine is s on one line, cut to n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
