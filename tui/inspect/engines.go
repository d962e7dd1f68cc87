package inspect

import (
	"fmt"
	"strings"
	"time"

	"github.com/steer-tui/steer/agent/runner"
)

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
