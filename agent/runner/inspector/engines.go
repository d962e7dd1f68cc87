package inspector

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/steer-tui/steer/agent/runner"
)

// Engines is the context engines inspector: /engines, rpc `inspect
// {what:"engines"}`, `steer inspect engines`. It reads the quarantines and
// never starts an engine.
var Engines = New(Def[runner.EnginesView]{
	Name:    "engines",
	Summary: "context engines and their quarantines",
	Usage:   "context engines and their quarantines (--clear NAME lifts one)",
	Args:    "[--clear NAME]",
	Help: `the context engine that answers (the configured agent.contextEngine,
or legacy while that one is quarantined), every configured engine, and the
quarantines the shared database holds: engine, method, reason, error, since,
count. It starts no engine. --json prints {active, selected, engines: [{name,
kind, command, timeoutSeconds, selected, quarantined}], quarantines: [{engine,
method, reason, error, since, last, count}]}. --clear NAME lifts NAME's
quarantine for every steer process.`,
	Read: func(ctx context.Context, src Source, _ Query) (runner.EnginesView, error) {
		return src.Engines(ctx)
	},
	ReadSaved: func(ctx context.Context, s Saved) (runner.EnginesView, error) {
		return s.State.Engines(ctx, s.Engine, s.Engines)
	},
	Print: printEngines,
	Table: func(v runner.EnginesView, f Frame) Table { return enginesTable(v, f.Now) },
	Clear: &Clear{
		What: "quarantine",
		Consequence: "The engine is tried again from the next request on, by every steer process on this\n" +
			"state directory; should it fail again, it is quarantined again.",
		Live: func(ctx context.Context, src Source, engine string) error {
			ok, err := src.ClearQuarantine(ctx, engine)
			if err == nil && !ok {
				err = fmt.Errorf("%s has no quarantine", engine)
			}
			return err
		},
		Saved: func(ctx context.Context, s Saved, engine string) error {
			had, err := s.State.ClearQuarantine(ctx, engine)
			if err != nil {
				return fmt.Errorf("clearing the quarantine of %s: %w", engine, err)
			}
			if !had {
				return &UsageError{Err: &runner.NotQuarantinedError{Engine: engine}}
			}
			return nil
		},
	},
})

// printEngines prints the context engines: the one that answers, every
// configured one, and the quarantines the shared database holds.
func printEngines(w io.Writer, v runner.EnginesView, _ time.Time) {
	fmt.Fprintf(w, "Active context engine: %s", v.Active)
	if v.Active != v.Selected {
		fmt.Fprintf(w, " (%s is quarantined)", v.Selected)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
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
		fmt.Fprintln(w, "\nNo quarantines.")
		return
	}
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "\nQUARANTINED\tMETHOD\tREASON\tCOUNT\tSINCE\tERROR")
	for _, q := range v.Quarantines {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", q.Engine, q.Method, q.Reason, q.Count,
			q.Since.Local().Format("2006-01-02 15:04:05"), oneLine(q.Error, 80))
	}
	tw.Flush()
	fmt.Fprintln(w, "\n'steer inspect engines --clear NAME' lifts a quarantine.")
}

// oneLine is s on one line, cut to n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// enginesTable is the context engines at now: the one that answers, every
// registered one, and the quarantine records (the method that failed, why,
// since when, how often, the error), also of engines no longer configured.
// A quarantined engine can be cleared.
func enginesTable(v runner.EnginesView, now time.Time) Table {
	t := Table{
		Title: "Context engines",
		Columns: []Column{{Title: "ENGINE", Max: 24}, {Title: "KIND", Drop: 1}, {Title: "STATE", Max: 24}, {Title: "METHOD"},
			{Title: "REASON", Max: 16}, {Title: "SINCE", Drop: 3}, {Title: "COUNT", Drop: 2}},
		Empty: "no context engines",
	}
	records := map[string]runner.Quarantine{}
	for _, q := range v.Quarantines {
		records[q.Engine] = q
	}
	for _, e := range v.Engines {
		state := Cell{Text: "standby"}
		switch {
		case e.Name == v.Active:
			state = Cell{Text: "active", Tone: ToneOK}
		case e.Quarantined && e.Selected:
			state = Cell{Text: "selected, quarantined", Tone: ToneBad}
		case e.Quarantined:
			state = Cell{Text: "quarantined", Tone: ToneBad}
		}
		row := Row{Key: e.Name, Cells: []Cell{text(e.Name), text(e.Kind), state}}
		if len(e.Command) > 0 {
			row.Detail = append(row.Detail, fmt.Sprintf("command: %s · each call within %s", strings.Join(e.Command, " "),
				time.Duration(e.TimeoutSeconds*float64(time.Second))))
		} else {
			row.Detail = append(row.Detail, "steer's own engine: the transcript as it is, compacted by the session's model")
		}
		if q, ok := records[e.Name]; ok {
			row = withQuarantine(row, q, now)
			delete(records, e.Name)
		}
		t.Rows = append(t.Rows, row)
	}
	for _, q := range v.Quarantines {
		if _, ok := records[q.Engine]; ok {
			row := Row{Key: q.Engine, Cells: []Cell{text(q.Engine), text("gone"), {Text: "quarantined", Tone: ToneBad}},
				Detail: []string{"no longer configured; its quarantine is still recorded"}}
			t.Rows = append(t.Rows, withQuarantine(row, q, now))
		}
	}
	t.Summary = "active: " + v.Active
	if v.Selected != v.Active {
		t.Summary += fmt.Sprintf(" · %s is quarantined, the built-in engine answers for it", v.Selected)
	}
	return t
}

// withQuarantine adds quarantine record q to an engine's row.
func withQuarantine(row Row, q runner.Quarantine, now time.Time) Row {
	row.Target = q.Engine
	since := &q.Since
	row.Cells = append(row.Cells, text(string(q.Method)), text(string(q.Reason)), text(ago(since, now)), text(fmt.Sprint(q.Count)))
	row.Detail = append(row.Detail, fmt.Sprintf("%s failed (%s), %s since %s, last %s: %s", q.Method, q.Reason,
		plural(q.Count, "time"), clock(q.Since, now), clock(q.Last, now), q.Error), "c clears the quarantine: the engine is tried again")
	return row
}
