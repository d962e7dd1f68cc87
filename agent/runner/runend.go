package runner

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/failover"
	"github.com/steer-tui/steer/lanes"
)

// How a run ended (SPEC §5.5, §12): every run's agent_end is followed by a
// run_end {runId, outcome, reason?} for every subscriber of the runtime,
// and its record says the same. The outcome is failover's merge of what
// the runtime saw (settleRun), so a run its time limit stopped is a
// timeout, not "aborted", and a late error after a hard timeout does not
// turn it into a plain failure.

// AnnotationRunEnd follows every run's agent_end; Data is a RunEnd.
const AnnotationRunEnd = "run_end"

// Run outcomes, as run records, run_end and the inspectors say them:
// failover.Outcome's codes (TestOutcomeWords keeps them equal).
const (
	OutcomeCompleted   = "completed"
	OutcomeFailed      = "failed"
	OutcomeCancelled   = "cancelled"
	OutcomeTimeout     = "timeout"      // the run's time limit (or its lane's) ran out
	OutcomeHardTimeout = "hard_timeout" // the provider timed out (a stall after it was reached) and the run ended on it
	OutcomeBlocked     = "blocked"
	// OutcomeAborted is what records written before terminal outcomes say
	// of a run stopped by the user, a quit, a signal or its time limit. It
	// is shown as it was written: which of those it was is not known.
	OutcomeAborted = "aborted"
)

// RunEnd is the Data of run_end: the run, how it ended, and why when it
// did not complete — the overflow chain's give-up (context_overflow,
// compaction_failure), the budget's stop (budget) or the failover reason
// of its last error.
type RunEnd struct {
	RunID   string `json:"runId"`
	Outcome string `json:"outcome"`
	Reason  string `json:"reason,omitempty"`
}

// Completed says whether the run completed.
func (e RunEnd) Completed() bool { return e.Outcome == OutcomeCompleted }

// runEvidence is what the runtime knows of a run as it ends.
type runEvidence struct {
	// last is the run's last message; zero when it added none.
	last agent.Message
	// gaveUp is why the overflow chain gave up (runGuard.gaveUp) or
	// RunEndBudget, or "".
	gaveUp string
	// admitted: the run got its lanes; reached: one of its attempts
	// started, so the provider was reached; lastReached: the request that
	// wrote the last message made an attempt (one refused because every
	// profile cools down made none).
	admitted, reached, lastReached bool
	// timeoutReason is the abort reason of the timeout that stopped the run
	// (its time limit, the lane's silence timeout), "" when none did;
	// timeoutAt is its moment, zero when not known.
	timeoutReason string
	timeoutAt     time.Time
}

// settleRun merges the evidence into the run's terminal outcome. A timeout
// reports first, at its moment; then the last message: a completion (which
// still wins when it is proven no later than the timeout), a failure (a
// timeout when its error is one and the provider was reached), or an
// abort — the timeout's own, or a cancellation that came before it, which
// is sticky.
func settleRun(e runEvidence) failover.Terminal {
	timeout := failover.Report{Status: failover.StatusTimeout, At: e.timeoutAt, Phase: e.phase(), ProviderReached: e.reached}
	last := failover.Report{Status: failover.StatusCompleted, At: e.last.Timestamp}
	switch e.last.StopReason {
	case agent.StopReasonError:
		last.Status = failover.StatusFailed
		if e.lastReached && reasonOf(agent.AssistantEvent{Partial: e.last}) == failover.ReasonTimeout {
			last.Status, last.Phase, last.ProviderReached = failover.StatusTimeout, failover.PhaseProvider, true
		}
	case agent.StopReasonAborted:
		if e.timeoutReason != "" && e.last.ErrorMessage == e.timeoutReason {
			return failover.Settle(timeout)
		}
		last.Status = failover.StatusCancelled
		if e.last.ErrorMessage == agent.AbortedMessage {
			last.Status = failover.StatusAborted
		}
		if e.timeoutReason == "" {
			return failover.Settle(last)
		}
		return failover.Settle(last, timeout)
	}
	if e.timeoutReason == "" {
		return failover.Settle(last)
	}
	return failover.Settle(timeout, last)
}

// phase is where the run's time limit found it: waiting for its lanes, or
// admitted. Either way the limit is steer's clock, not the model's, so the
// outcome is a plain timeout (failover.PhaseLimit); a provider that timed
// out is a hard timeout through the last message instead.
func (e runEvidence) phase() failover.Phase {
	if !e.admitted {
		return failover.PhaseQueue
	}
	return failover.PhaseLimit
}

// runEndReason is why a run that did not complete ended: the overflow
// chain's give-up first, else the failover reason of its last error ("" for
// one with nothing to go on, and for a run that was aborted).
func runEndReason(e runEvidence, outcome failover.Outcome) string {
	if outcome == failover.OutcomeCompleted {
		return ""
	}
	if e.gaveUp != "" {
		return e.gaveUp
	}
	if e.last.StopReason != agent.StopReasonError {
		return ""
	}
	if reason := reasonOf(agent.AssistantEvent{Partial: e.last}); reason != failover.ReasonUnknown {
		return reason.String()
	}
	return ""
}

// runEnds follows the run under way for its run_end — whether its attempts
// started — and keeps how the last run ended, for the record and every
// subscriber. It calls nothing: the runtime gathers the rest of the
// evidence (Runtime.settle).
type runEnds struct {
	mu sync.Mutex
	// reached: an attempt of the run started; requesting: one started since
	// the last assistant message; lastReached: the request of that message
	// made one.
	reached, requesting, lastReached bool
	end                              RunEnd
	errText                          string // the record's error: the last message's errorMessage
}

// observe folds one event of the run into what its end will need.
func (s *runEnds) observe(ev agent.Event) {
	switch e := ev.(type) {
	case agent.AgentStart:
		s.mu.Lock()
		s.reached, s.requesting, s.lastReached = false, false, false
		s.mu.Unlock()
	case agent.Annotation:
		if e.Kind == AnnotationAttemptStart {
			s.mu.Lock()
			s.reached, s.requesting = true, true
			s.mu.Unlock()
		}
	case agent.MessageEnd:
		if e.Message.Role == agent.RoleAssistant {
			s.mu.Lock()
			s.lastReached, s.requesting = s.requesting, false
			s.mu.Unlock()
		}
	}
}

// settle completes e with what the run's events said and keeps the run's
// RunEnd under runID.
func (s *runEnds) settle(e runEvidence, runID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e.reached, e.lastReached = s.reached, s.lastReached
	t := settleRun(e)
	s.end = RunEnd{RunID: runID, Outcome: t.Outcome.String(), Reason: runEndReason(e, t.Outcome)}
	s.errText = ""
	if e.last.StopReason == agent.StopReasonError || e.last.StopReason == agent.StopReasonAborted {
		s.errText = e.last.ErrorMessage
	}
}

// last is how the last run ended, and the error its record keeps.
func (s *runEnds) last() (RunEnd, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.end, s.errText
}

// withRunEnd is fn that also gets the run_end after every agent_end.
func (s *runEnds) withRunEnd(fn agent.Subscriber) agent.Subscriber {
	return func(ev agent.Event) {
		fn(ev)
		if _, ok := ev.(agent.AgentEnd); ok {
			end, _ := s.last()
			fn(agent.Annotation{Kind: AnnotationRunEnd, Data: end})
		}
	}
}

// runName is the id of the run under way, minted by whichever asks first:
// its agent_start (watchRun) or its first request entering the lanes. The
// loop makes that request while agent_start is still being dispatched, so
// both ask, and the lanes and the record name the same run.
func (r *Runtime) runName() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.session.runNamed {
		r.session.runID, r.session.runNamed = newID("r_"), true
	}
	return r.session.runID
}

// watchRun is the runtime's first subscriber: it names the run at
// agent_start (the record and the run_end use that id), and settles its
// outcome at agent_end, before any other subscriber sees that event.
func (r *Runtime) watchRun(ev agent.Event) {
	switch e := ev.(type) {
	case agent.AgentStart:
		r.runName()
	case agent.AgentEnd:
		r.settle(e.Messages)
		return
	}
	r.ends.observe(ev)
}

// settle gathers the evidence of the run that just ended for its RunEnd.
// The lane task is still held here: the lanes are left by a later
// subscriber.
func (r *Runtime) settle(msgs []agent.Message) {
	e := runEvidence{gaveUp: r.keeper.run.gaveUp()}
	if n := len(msgs); n > 0 {
		e.last = msgs[n-1]
	}
	r.lane.mu.Lock()
	task := r.lane.task
	r.lane.mu.Unlock()
	e.admitted = task != nil
	if task != nil && r.spend.stopped(task) {
		e.gaveUp = RunEndBudget
	}
	var laneTimeout *lanes.TimeoutError
	switch {
	case r.clock.timedOut():
		e.timeoutReason, e.timeoutAt = AbortTimeout(r.opts.RunTimeout), r.clock.timedOutAt()
	case task != nil && errors.As(context.Cause(task.Context()), &laneTimeout):
		e.timeoutReason = laneTimeout.Error()
	}
	r.mu.Lock()
	runID := r.session.runID
	r.session.runNamed = false // the next run gets a name of its own; this one keeps runID to its end
	r.mu.Unlock()
	r.ends.settle(e, runID)
}
