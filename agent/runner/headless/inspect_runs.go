package headless

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/steer-tui/steer/agent/runner"
)

// The run inspectors.
const (
	InspectLanes = "lanes"
	InspectRuns  = "runs"
)

// ShowLanes is `steer inspect lanes`: the running and waiting runs of every
// live steer process on the state directory, lane by lane, read from the
// shared database.
func ShowLanes(ctx context.Context, stateDir string, asJSON bool, now time.Time, stdout, stderr io.Writer) int {
	store, err := runner.OpenStateView(stateDir, runner.StateViewOptions{})
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return ExitUsage
	}
	defer store.Close()
	view, err := store.Lanes(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "steer: reading the lanes: %v\n", err)
		return ExitFailed
	}
	if asJSON {
		return writeJSON(stdout, stderr, view)
	}
	procs := view.Processes
	if len(procs) == 0 {
		fmt.Fprintln(stdout, "No steer process is running on this state directory.")
		return ExitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROCESS\tLANE\tCAP\tSTATE\tRUN\tSESSION\tTRIGGER\tPRIORITY\tFOR")
	for _, p := range procs {
		who := fmt.Sprintf("pid %d", p.PID)
		for _, l := range p.Lanes {
			for _, e := range l.Running {
				fmt.Fprintf(tw, "%s\t%s\t%d\trunning\t%s\t%s\t%s\t%s\t%s\n", who, l.Name, l.Cap, e.ID, e.Session, e.Trigger, e.Priority,
					now.Sub(e.Started).Round(time.Second))
			}
			for _, e := range l.Waiting {
				fmt.Fprintf(tw, "%s\t%s\t%d\twaiting\t%s\t%s\t%s\t%s\t%s\n", who, l.Name, l.Cap, e.ID, e.Session, e.Trigger, e.Priority,
					now.Sub(e.Enqueued).Round(time.Second))
			}
			if len(l.Running)+len(l.Waiting) == 0 {
				fmt.Fprintf(tw, "%s\t%s\t%d\tidle\t-\t-\t-\t-\t-\n", who, l.Name, l.Cap)
			}
		}
	}
	tw.Flush()
	return ExitOK
}

// ShowRuns is `steer inspect runs`: the recent runs, newest first, with
// their outcome (and why, when it was not completed), duration and
// attempts. Records written before terminal outcomes may say "aborted":
// they are shown as they were written.
func ShowRuns(ctx context.Context, stateDir string, asJSON bool, stdout, stderr io.Writer) int {
	store, err := runner.OpenStateView(stateDir, runner.StateViewOptions{})
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return ExitUsage
	}
	defer store.Close()
	runs, err := store.Runs(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "steer: reading the runs: %v\n", err)
		return ExitFailed
	}
	if asJSON {
		return writeJSON(stdout, stderr, runs)
	}
	if len(runs) == 0 {
		fmt.Fprintln(stdout, "No runs yet.")
		return ExitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tSESSION\tTRIGGER\tSTARTED\tTOOK\tOUTCOME\tREASON\tATTEMPTS")
	for _, r := range runs {
		took, outcome := "-", orDash(r.Outcome)
		if r.DurationMs != nil {
			took = (time.Duration(*r.DurationMs) * time.Millisecond).Round(time.Millisecond).String()
		} else {
			outcome = "running"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.SessionID, r.Trigger, r.Started.Local().Format("2006-01-02 15:04:05"),
			took, outcome, orDash(r.Reason), attemptsLine(r.Attempts))
	}
	tw.Flush()
	return ExitOK
}

// attemptsLine words a run's attempts on one line: "p:a rate_limit → p:b".
func attemptsLine(as []runner.AttemptView) string {
	if len(as) == 0 {
		return "-"
	}
	parts := make([]string, len(as))
	for i, a := range as {
		parts[i] = a.Profile
		if a.Reason != "" {
			parts[i] += " " + a.Reason
		}
	}
	return strings.Join(parts, " → ")
}
