package inspect

import (
	"fmt"
	"slices"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/inspector"
)

// maxTraceRuns bounds the runs a TraceLog keeps.
const maxTraceRuns = 20

// TraceLog records the runs this screen saw from their events: every
// attempt, failover, retry and compaction, in order. It is a value; Record
// returns the log with the events added.
type TraceLog struct {
	runs    []inspector.Run // oldest first
	open    bool            // the newest run is going
	seq     int             // runs recorded, to name them
	version int             // counts changes
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
				l = l.withLast(func(r *inspector.Run) { r.Ended, r.Error = at, why })
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
			return l.add(inspector.Step{Kind: inspector.StepAttempt, Info: data}, at)
		case runner.AnnotationAttemptEnd:
			return l.endAttempt(data, at)
		case runner.AnnotationFailover:
			return l.add(inspector.Step{Kind: inspector.StepFailover, Info: data, Ended: true}, at)
		}
	case runner.RunEnd:
		if len(l.runs) > 0 && !l.open {
			return l.withLast(func(r *inspector.Run) { r.Outcome, r.Reason = data.Outcome, data.Reason })
		}
	case runner.RetryStartInfo:
		return l.add(inspector.Step{Kind: inspector.StepRetry, Retry: data, Ended: true}, at)
	case runner.CompactionEnd:
		if !l.open {
			l = l.begin("compaction", at)
			l = l.add(inspector.Step{Kind: inspector.StepCompaction, Compaction: data, Ended: true}, at)
			l.open = false
			return l.withLast(func(r *inspector.Run) {
				r.Ended, r.Outcome = at, runner.OutcomeCompleted
				if data.Result == nil {
					r.Outcome, r.Error = runner.OutcomeFailed, data.ErrorMessage
				}
			})
		}
		return l.add(inspector.Step{Kind: inspector.StepCompaction, Compaction: data, Ended: true}, at)
	}
	return l
}

// begin opens a new run, dropping the oldest beyond maxTraceRuns.
func (l TraceLog) begin(trigger string, at time.Time) TraceLog {
	l.seq++
	l.runs = append(slices.Clip(l.runs), inspector.Run{Key: fmt.Sprintf("live %d", l.seq), Trigger: trigger, Started: at})
	if len(l.runs) > maxTraceRuns {
		l.runs = l.runs[len(l.runs)-maxTraceRuns:]
	}
	l.open = true
	l.version++
	return l
}

// add appends a step to the run under way (one is opened for a step that
// came without its agent_start).
func (l TraceLog) add(s inspector.Step, at time.Time) TraceLog {
	if !l.open {
		l = l.begin("user", at)
	}
	return l.withLast(func(r *inspector.Run) { r.Steps = append(slices.Clip(r.Steps), s) })
}

// withLast returns the log with its newest run changed by fn; the runs are
// copied first, so that no copy of the log sees another's change.
func (l TraceLog) withLast(fn func(r *inspector.Run)) TraceLog {
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
			if s := r.Steps[i]; s.Kind == inspector.StepAttempt && !s.Ended && s.Info.Attempt == info.Attempt {
				return l.withLast(func(r *inspector.Run) {
					r.Steps = slices.Clone(r.Steps)
					r.Steps[i].Info, r.Steps[i].Ended = info, true
				})
			}
		}
	}
	return l.add(inspector.Step{Kind: inspector.StepAttempt, Info: info, Ended: true}, at)
}

// Runs returns the recorded runs, newest first.
func (l TraceLog) Runs() []inspector.Run {
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
