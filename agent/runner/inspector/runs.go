package inspector

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/steer-tui/steer/agent/humanize"
	"github.com/steer-tui/steer/agent/runner"
)

// RunsView is the runs inspector's view: the stored run records, or the
// runs a screen recorded from their events (Seen, newest first: a trace
// that is whole while its run goes on, with its retries and compactions),
// which the trace then shows instead.
type RunsView struct {
	Records []runner.RunView
	Seen    []Run
}

// Runs is the runs inspector: /trace (the failover trace of each run, ← and
// → through them), rpc `inspect {what:"runs"}` ({runs: [...]}) and `steer
// inspect runs`, the recent runs with their outcome and attempts.
var Runs = New(Def[RunsView]{
	Name:    "runs",
	Command: "trace",
	Summary: "the failover trace of the last run",
	Usage:   "recent runs: trigger, outcome, duration, every attempt",
	Help: `the 50 most recent runs, newest first. --json prints [{id, sessionId,
trigger, started, ended, durationMs, outcome, error?, attempts: [{profile,
model, reason, decision, durationMs}]}].`,
	Read: func(ctx context.Context, src Source, q Query) (RunsView, error) {
		runs, err := src.Runs(ctx, q.Session, q.Recent)
		return RunsView{Records: runs}, err
	},
	ReadSaved: func(ctx context.Context, s Saved) (RunsView, error) {
		runs, err := s.State.Runs(ctx)
		if err != nil {
			return RunsView{}, fmt.Errorf("reading the runs: %w", err)
		}
		return RunsView{Records: runs}, nil
	},
	JSON: func(v RunsView) any { return v.Records },
	Answer: func(v RunsView) any {
		return struct {
			Runs []runner.RunView `json:"runs"`
		}{v.Records}
	},
	Print: printRuns,
	Table: func(v RunsView, f Frame) Table {
		runs := v.Seen
		if len(runs) == 0 {
			runs = RunsFromRecords(v.Records)
		}
		t := traceTable(runs, f.Page, f.Now)
		for _, r := range runs {
			t.Pages = append(t.Pages, r.Key)
		}
		return t
	},
})

// printRuns prints the recent runs, newest first, with their outcome (and
// why, when it was not completed), duration and attempts. Records written
// before terminal outcomes may say "aborted": they are shown as written.
func printRuns(w io.Writer, v RunsView, _ time.Time) {
	if len(v.Records) == 0 {
		fmt.Fprintln(w, "No runs yet.")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tSESSION\tTRIGGER\tSTARTED\tTOOK\tOUTCOME\tREASON\tATTEMPTS")
	for _, r := range v.Records {
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

// Run is one run as the trace shows it: when it started and ended, how,
// and its steps in order.
type Run struct {
	// Key names the run: its record's id, or "live N" for a run this
	// screen recorded from its events.
	Key     string
	Trigger string
	Started time.Time
	Ended   time.Time // zero while it runs
	Outcome string    // runner.OutcomeCompleted …, from its run_end; "" until then
	Reason  string    // why it did not complete (context_overflow …), from its run_end
	Error   string
	Steps   []Step
}

// StepKind says what a step of a run was.
type StepKind int

// The steps of a run's trace.
const (
	StepAttempt    StepKind = iota // one profile of one model (Info)
	StepFailover                   // the move to the next profile or model (Info)
	StepRetry                      // a same-profile retry after a wait (Retry)
	StepCompaction                 // the session compacted (Compaction)
)

// Step is one step of a run.
type Step struct {
	Kind StepKind
	// Info is an attempt's (from its attempt_end once Ended) or a
	// failover's.
	Info       runner.AttemptInfo
	Ended      bool
	Retry      runner.RetryStartInfo
	Compaction runner.CompactionEnd
}

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

// RunsFromRecords is the trace of stored runs (runner.Runtime.Runs),
// newest first as given. The records keep attempts only; the failover
// between two attempts is put back from the first one's decision.
func RunsFromRecords(views []runner.RunView) []Run {
	out := make([]Run, 0, len(views))
	for _, v := range views {
		r := Run{Key: v.ID, Trigger: v.Trigger, Started: v.Started, Outcome: v.Outcome, Reason: v.Reason, Error: v.Error}
		if v.Ended != nil {
			r.Ended = *v.Ended
		}
		for i, a := range v.Attempts {
			info := runner.AttemptInfo{Profile: a.Profile, Model: a.Model, Attempt: i + 1, Reason: a.Reason,
				Decision: a.Decision, DurationMs: a.DurationMs}
			r.Steps = append(r.Steps, Step{Kind: StepAttempt, Info: info, Ended: true})
			if i+1 < len(v.Attempts) {
				if f, ok := impliedFailover(a, v.Attempts[i+1]); ok {
					r.Steps = append(r.Steps, Step{Kind: StepFailover, Info: f, Ended: true})
				}
			}
		}
		out = append(out, r)
	}
	return out
}

// impliedFailover is the move from attempt a to next that a's decision
// made, if it made one.
func impliedFailover(a, next runner.AttemptView) (runner.AttemptInfo, bool) {
	f := runner.AttemptInfo{Reason: a.Reason, Decision: a.Decision}
	switch a.Decision {
	case runner.DecisionRotateProfile:
		f.From, f.To = a.Profile, next.Profile
	case runner.DecisionFallbackModel:
		f.From, f.To = a.Model, next.Model
	default:
		return f, false
	}
	return f, true
}
