package inspect

import (
	"fmt"
	"slices"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
)

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

// maxTraceRuns bounds the runs a TraceLog keeps.
const maxTraceRuns = 20

// TraceLog records the runs this screen saw from their events: every
// attempt, failover, retry and compaction, in order. It is a value; Record
// returns the log with the events added.
type TraceLog struct {
	runs    []Run // oldest first
	open    bool  // the newest run is going
	seq     int   // runs recorded, to name them
	version int   // counts changes
}

// Record adds the steps among events; at is the time they arrived. A
// compaction outside a run (/compact) is a run of its own.
func (l TraceLog) Record(events []agent.Event, at time.Time) TraceLog {
	for _, ev := range events {
		switch e := ev.(type) {
		case agent.AgentStart:
			l = l.begin("user", at)
		case agent.AgentEnd: // its run_end, right after, says how it went
			if l.open {
				why := lastError(e.Messages)
				l = l.withLast(func(r *Run) { r.Ended, r.Error = at, why })
				l.open = false
			}
		case agent.Annotation:
			l = l.annotation(e, at)
		}
	}
	return l
}

func (l TraceLog) annotation(a agent.Annotation, at time.Time) TraceLog {
	switch data := a.Data.(type) {
	case runner.AttemptInfo:
		switch a.Kind {
		case runner.AnnotationAttemptStart:
			return l.add(Step{Kind: StepAttempt, Info: data}, at)
		case runner.AnnotationAttemptEnd:
			return l.endAttempt(data, at)
		case runner.AnnotationFailover:
			return l.add(Step{Kind: StepFailover, Info: data, Ended: true}, at)
		}
	case runner.RunEnd:
		if len(l.runs) > 0 && !l.open {
			return l.withLast(func(r *Run) { r.Outcome, r.Reason = data.Outcome, data.Reason })
		}
	case runner.RetryStartInfo:
		return l.add(Step{Kind: StepRetry, Retry: data, Ended: true}, at)
	case runner.CompactionEnd:
		if !l.open {
			l = l.begin("compaction", at)
			l = l.add(Step{Kind: StepCompaction, Compaction: data, Ended: true}, at)
			l.open = false
			return l.withLast(func(r *Run) {
				r.Ended, r.Outcome = at, runner.OutcomeCompleted
				if data.Result == nil {
					r.Outcome, r.Error = runner.OutcomeFailed, data.ErrorMessage
				}
			})
		}
		return l.add(Step{Kind: StepCompaction, Compaction: data, Ended: true}, at)
	}
	return l
}

// begin opens a new run, dropping the oldest beyond maxTraceRuns.
func (l TraceLog) begin(trigger string, at time.Time) TraceLog {
	l.seq++
	l.runs = append(slices.Clip(l.runs), Run{Key: fmt.Sprintf("live %d", l.seq), Trigger: trigger, Started: at})
	if len(l.runs) > maxTraceRuns {
		l.runs = l.runs[len(l.runs)-maxTraceRuns:]
	}
	l.open = true
	l.version++
	return l
}

// add appends a step to the run under way (one is opened for a step that
// came without its agent_start).
func (l TraceLog) add(s Step, at time.Time) TraceLog {
	if !l.open {
		l = l.begin("user", at)
	}
	return l.withLast(func(r *Run) { r.Steps = append(slices.Clip(r.Steps), s) })
}

// withLast returns the log with its newest run changed by fn; the runs are
// copied first, so that no copy of the log sees another's change.
func (l TraceLog) withLast(fn func(r *Run)) TraceLog {
	l.runs = slices.Clone(l.runs)
	fn(&l.runs[len(l.runs)-1])
	l.version++
	return l
}

// Len is how many runs are recorded.
func (l TraceLog) Len() int { return len(l.runs) }

// Version changes whenever the log does.
func (l TraceLog) Version() int { return l.version }

// endAttempt completes the attempt that info ends.
func (l TraceLog) endAttempt(info runner.AttemptInfo, at time.Time) TraceLog {
	if l.open {
		r := l.runs[len(l.runs)-1]
		for i := len(r.Steps) - 1; i >= 0; i-- {
			if s := r.Steps[i]; s.Kind == StepAttempt && !s.Ended && s.Info.Attempt == info.Attempt {
				return l.withLast(func(r *Run) {
					r.Steps = slices.Clone(r.Steps)
					r.Steps[i].Info, r.Steps[i].Ended = info, true
				})
			}
		}
	}
	return l.add(Step{Kind: StepAttempt, Info: info, Ended: true}, at)
}

// Runs returns the recorded runs, newest first.
func (l TraceLog) Runs() []Run {
	out := slices.Clone(l.runs)
	slices.Reverse(out)
	return out
}

// lastError is the error the last message of a run ended with, if any.
func lastError(messages []agent.Message) string {
	if n := len(messages); n > 0 {
		if last := messages[n-1]; last.StopReason == agent.StopReasonError || last.StopReason == agent.StopReasonAborted {
			return last.ErrorMessage
		}
	}
	return ""
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
