package inspect

import (
	"fmt"
	"time"

	"github.com/steer-tui/steer/agent/humanize"
	"github.com/steer-tui/steer/agent/runner"
)

// traceTable is run i of runs (newest first) as its failover trace: every
// attempt with its profile, model, result, decision and duration, and
// between them the failovers, retries and compactions, in order.
func traceTable(runs []Run, i int, now time.Time) Table {
	t := Table{
		Title: "Failover trace",
		Columns: []Column{{Title: "#"}, {Title: "STEP", Drop: 1}, {Title: "PROFILE", Max: 40}, {Title: "MODEL", Max: 40},
			{Title: "RESULT", Max: 24}, {Title: "DECISION", Max: 24}, {Title: "TOOK", Drop: 2}},
		Empty: "no run yet in this session",
	}
	if i < 0 || i >= len(runs) {
		return t
	}
	r := runs[i]
	t.Summary = runSummary(r, i, len(runs), now)
	t.Empty = "no attempts: nothing was asked of a model"
	for n, s := range r.Steps {
		row := stepRow(s)
		row.Key = fmt.Sprint(n)
		t.Rows = append(t.Rows, row)
	}
	return t
}

// runSummary says which run this is and how it went.
func runSummary(r Run, i, n int, now time.Time) string {
	which := "the last run"
	if i > 0 {
		which = fmt.Sprintf("run %d back", i)
	}
	s := fmt.Sprintf("%s (%d of %d)", which, n-i, n)
	if r.Trigger != "" && r.Trigger != "user" {
		s += ", " + r.Trigger
	}
	s += ", started " + clock(r.Started, now)
	switch {
	case r.Ended.IsZero():
		s += ", running for " + left(now.Sub(r.Started))
	case r.Error != "":
		s += fmt.Sprintf(", %s after %s: %s", ending(r), took(r.Ended.Sub(r.Started).Milliseconds()), r.Error)
	default:
		s += fmt.Sprintf(", %s in %s", ending(r), took(r.Ended.Sub(r.Started).Milliseconds()))
	}
	return s
}

// ending words how an ended run went: its outcome and why ("failed
// (context_overflow)"), or "ended" before its run_end arrives.
func ending(r Run) string {
	switch {
	case r.Outcome == "":
		return "ended"
	case r.Reason != "":
		return r.Outcome + " (" + r.Reason + ")"
	}
	return r.Outcome
}

// stepRow is one step: its cells and a sentence about it.
func stepRow(s Step) Row {
	i := s.Info
	switch s.Kind {
	case StepFailover:
		row := Row{Cells: []Cell{text(""), text("↻ failover"), text(""), text(""), {Text: i.Reason, Tone: ToneBad}, text(i.Decision)},
			Detail: []string{i.Summary()}}
		if i.Decision == runner.DecisionFallbackModel {
			row.Cells[3] = text(i.From + " → " + i.To)
		} else {
			row.Cells[2] = text(i.From + " → " + i.To)
		}
		return row
	case StepRetry:
		r := s.Retry
		return Row{Cells: []Cell{text(""), text("retry"), text(r.Profile), text(r.Model), {Text: r.Reason, Tone: ToneWarn},
			text(fmt.Sprintf("retry %d/%d", r.Attempt, r.MaxAttempts)), text(took(r.DelayMs))},
			Detail: []string{fmt.Sprintf("%s on profile %s: waited %s, then tried it again (%d of %d): %s", r.Reason, r.Profile,
				took(r.DelayMs), r.Attempt, r.MaxAttempts, r.ErrorMessage)}}
	case StepCompaction:
		c := s.Compaction
		result := Cell{Text: fmt.Sprintf("%s → %s", humanize.Tokens(c.TokensBefore), humanize.Tokens(c.TokensAfter)), Tone: ToneOK}
		if c.Result == nil {
			result = Cell{Text: "not compacted", Tone: ToneWarn}
		}
		return Row{Cells: []Cell{text(""), text("⟲ compaction"), text(""), text(""), result, text(c.Reason)},
			Detail: []string{c.Summary()}}
	}
	return attemptRow(s)
}

// attemptRow is an attempt: running, answered, or failed with the reason
// and the decision taken.
func attemptRow(s Step) Row {
	i := s.Info
	row := Row{Cells: []Cell{text(fmt.Sprintf("#%d", i.Attempt)), text("attempt"), text(i.Profile), text(i.Model)}}
	switch {
	case !s.Ended:
		row.Cells = append(row.Cells, Cell{Text: "running…", Tone: ToneWarn})
		row.Detail = []string{fmt.Sprintf("attempt %d: %s on %s, waiting for its answer", i.Attempt, i.Model, i.Profile)}
		return row
	case i.Reason == "":
		row.Cells = append(row.Cells, Cell{Text: "answered", Tone: ToneOK}, text(""), text(took(i.DurationMs)))
		row.Detail = []string{fmt.Sprintf("attempt %d: %s on %s answered in %s", i.Attempt, i.Model, i.Profile, took(i.DurationMs))}
		return row
	}
	row.Cells = append(row.Cells, Cell{Text: i.Reason, Tone: ToneBad}, text(i.Decision), text(took(i.DurationMs)))
	row.Detail = []string{fmt.Sprintf("attempt %d: %s on %s failed after %s (%s); decided: %s", i.Attempt, i.Model, i.Profile,
		took(i.DurationMs), i.Reason, decisionWords(i.Decision))}
	return row
}

// decisionWords says what a failover decision does.
func decisionWords(d string) string {
	switch d {
	case runner.DecisionRotateProfile:
		return "rotate to the next auth profile"
	case runner.DecisionFallbackModel:
		return "fall back to the next model"
	case runner.DecisionSurfaceError:
		return "show the error: no other profile or model could do better"
	case runner.DecisionContinueNormal:
		return "retry on the same profile"
	case "":
		return "nothing (the attempt was cut off)"
	}
	return d
}
