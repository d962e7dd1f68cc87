package inspector

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/steer-tui/steer/agent/runner"
)

// Lanes is the lanes inspector: /lanes, rpc `inspect {what:"lanes"}`,
// `steer inspect lanes`: the running and waiting runs of every live steer
// process on the state directory, lane by lane.
var Lanes = New(Def[runner.LanesView]{
	Name:    "lanes",
	Summary: "runs running and waiting, in every steer process",
	Usage:   "running and waiting runs of every steer process, lane by lane",
	Help: `every live steer process on the state directory with its lanes (the
global lane, the sub-agent lane, a lane per busy session): what runs and what
waits, with trigger, priority and since when. --json prints {processes:
[{processId, pid, host, started, taken, lanes: [{name, kind, session, cap,
running: [...], waiting: [...]}]}]}.`,
	Read: func(ctx context.Context, src Source, _ Query) (runner.LanesView, error) {
		return src.Lanes(ctx)
	},
	ReadSaved: func(ctx context.Context, s Saved) (runner.LanesView, error) {
		v, err := s.State.Lanes(ctx)
		if err != nil {
			return v, fmt.Errorf("reading the lanes: %w", err)
		}
		return v, nil
	},
	Print: printLanes,
	Table: func(v runner.LanesView, f Frame) Table { return lanesTable(v, f.Now) },
})

// printLanes prints every process's lanes at now: each run running or
// waiting, and for how long.
func printLanes(w io.Writer, v runner.LanesView, now time.Time) {
	if len(v.Processes) == 0 {
		fmt.Fprintln(w, "No steer process is running on this state directory.")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROCESS\tLANE\tCAP\tSTATE\tRUN\tSESSION\tTRIGGER\tPRIORITY\tFOR")
	for _, p := range v.Processes {
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
}

// lanesTable is the lanes of every live steer process at now: each run
// running or waiting in the global lane, the sub-agent lane and the session
// lanes, with its trigger, its priority, how long it waited and how long it
// has run. An idle global or sub-agent lane gets a row of its own, so that
// its capacity shows. A running run that the runner calls stalled (no
// progress for runner.StallAfter) is marked so, with how long it has been
// silent.
func lanesTable(v runner.LanesView, now time.Time) Table {
	t := Table{
		Title: "Lanes",
		Columns: []Column{{Title: "LANE", Max: 24}, {Title: "PROCESS", Max: 20, Drop: 2}, {Title: "RUN", Max: 20},
			{Title: "TRIGGER", Drop: 3}, {Title: "PRIORITY", Drop: 1}, {Title: "STATE", Max: 16}, {Title: "WAITED"}, {Title: "RUNNING"}},
		Empty: "no steer process is running",
	}
	// A run holds (or waits for) two lanes: it counts once, as waiting
	// while it waits for either.
	running, waiting := map[string]bool{}, map[string]bool{}
	stalled := map[string]time.Time{}
	for _, s := range v.Stalled {
		stalled[s.SessionID] = s.Since
	}
	for _, p := range v.Processes {
		proc := "this process"
		if p.PID != 0 {
			proc = fmt.Sprintf("pid %d", p.PID)
		}
		for _, l := range p.Lanes {
			for _, e := range l.Running {
				row := laneRow(proc, l, e, now)
				if since, ok := stalled[e.Session]; ok {
					markStalled(&row, since, now)
				}
				t.Rows = append(t.Rows, row)
				running[p.ProcessID+e.ID] = true
			}
			for _, e := range l.Waiting {
				t.Rows = append(t.Rows, laneRow(proc, l, e, now))
				waiting[p.ProcessID+e.ID] = true
			}
			if len(l.Running)+len(l.Waiting) == 0 && l.Kind != runner.LaneSession {
				t.Rows = append(t.Rows, Row{Key: proc + "/" + l.Name, Cells: []Cell{text(l.Name), text(proc), text(""), text(""), text(""),
					{Text: fmt.Sprintf("idle (cap %d)", l.Cap), Tone: ToneOK}},
					Detail: []string{fmt.Sprintf("lane %s of %s: nothing runs or waits; %s at once", l.Name, proc, plural(l.Cap, "run"))}})
			}
		}
	}
	for id := range waiting {
		delete(running, id)
	}

	if n := len(v.Processes); n == 1 {
		t.Summary = fmt.Sprintf("1 process: %d running, %d waiting", len(running), len(waiting))
	} else if n > 1 {
		t.Summary = fmt.Sprintf("%d processes: %d running, %d waiting", n, len(running), len(waiting))
	}
	if n := len(v.Stalled); n > 0 && t.Summary != "" {
		t.Summary += fmt.Sprintf(", %d stalled", n)
	}
	return t
}

// laneRow is run e in lane l of process proc.
func laneRow(proc string, l runner.Lane, e runner.LaneEntry, now time.Time) Row {
	state, waited, ran := Cell{Text: "waiting", Tone: ToneWarn}, now.Sub(e.Enqueued), ""
	if !e.Started.IsZero() {
		state, waited, ran = Cell{Text: "running", Tone: ToneOK}, e.Started.Sub(e.Enqueued), left(now.Sub(e.Started))
	}
	detail := fmt.Sprintf("run %s of session %s (trigger %s, priority %s) in lane %s of %s (cap %d): waited %s",
		e.ID, e.Session, e.Trigger, e.Priority, l.Name, proc, l.Cap, left(waited))
	if ran != "" {
		detail += ", running for " + ran
	}
	return Row{Key: proc + "/" + l.Name + "/" + e.ID, Detail: []string{detail},
		Cells: []Cell{text(l.Name), text(proc), text(e.ID), text(e.Trigger), text(e.Priority.String()), state, text(left(waited)), text(ran)}}
}

// markStalled marks a running run's row as stalled since since.
func markStalled(r *Row, since time.Time, now time.Time) {
	r.Cells[5] = Cell{Text: "stalled " + left(now.Sub(since)), Tone: ToneBad}
	r.Detail = append(r.Detail, fmt.Sprintf("stalled: no progress for %s; aborted after %s without progress",
		left(now.Sub(since)), left(runner.StallAbortAfter)))
}
