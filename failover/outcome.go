package failover

import "time"

// Outcome is how a run ended (SPEC §5.5), merged from every source that
// reports it: the wait result, liveness, timeout attribution.
type Outcome int

// The outcomes. OutcomePending is the zero value: no source has reported.
const (
	OutcomePending Outcome = iota
	OutcomeCompleted
	OutcomeFailed
	OutcomeCancelled
	OutcomeTimeout     // timed out while waiting (a queue, a drain): not the model's fault
	OutcomeHardTimeout // timed out in preflight, at the provider or after the turn
	OutcomeBlocked     // a hook or policy blocked the run on purpose
)

var outcomeCodes = [...]string{
	OutcomePending:     "pending",
	OutcomeCompleted:   "completed",
	OutcomeFailed:      "failed",
	OutcomeCancelled:   "cancelled",
	OutcomeTimeout:     "timeout",
	OutcomeHardTimeout: "hard_timeout",
	OutcomeBlocked:     "blocked",
}

// String is the outcome's snake_case code.
func (o Outcome) String() string {
	return codeOf(outcomeCodes[:], o, "pending")
}

// MarshalText writes the code.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// Phase is where a run was when a source observed its end.
type Phase int

// The phases.
const (
	PhaseUnknown   Phase = iota
	PhaseQueue           // waiting in a session or global lane
	PhasePreflight       // resolving, guarding and building the request
	PhaseProvider        // talking to the provider
	PhasePostTurn        // after the model's turn: tools, settle, persist
	PhaseDrain           // waiting for the runtime to drain
	// PhaseLimit: the run's own time limit (or its lane's backstop) ran
	// out. That clock belongs to the waiting layer, not to the model, so
	// it is a plain timeout wherever the run was; a provider that timed
	// out reports at PhaseProvider instead.
	PhaseLimit
)

var phaseCodes = [...]string{
	PhaseUnknown:   "unknown",
	PhaseQueue:     "queue",
	PhasePreflight: "preflight",
	PhaseProvider:  "provider",
	PhasePostTurn:  "post_turn",
	PhaseDrain:     "drain",
	PhaseLimit:     "limit",
}

// String is the phase's snake_case code.
func (p Phase) String() string {
	return codeOf(phaseCodes[:], p, "unknown")
}

// HardTimeoutPhase reports whether a timeout in this phase is the model's
// side's fault: preflight, provider, post_turn. (seed) A timeout while
// queued or draining is the waiting layer's uncertainty.
func HardTimeoutPhase(p Phase) bool {
	return p == PhasePreflight || p == PhaseProvider || p == PhasePostTurn
}

// Status is what one source reports.
type Status int

// The statuses. Aborted is a cancellation by an explicit abort; it ranks
// above a plain cancellation and ends as OutcomeCancelled.
const (
	StatusCompleted Status = iota
	StatusFailed
	StatusCancelled
	StatusAborted
	StatusTimeout
	StatusBlocked
)

// Report is one source's word on how the run ended.
type Report struct {
	Status Status
	// At is when it happened: the completion time for a completion, the
	// moment of the timeout for a timeout. Zero when the source cannot say.
	At time.Time
	// Phase and ProviderReached attribute a timeout.
	Phase           Phase
	ProviderReached bool
}

// Terminal is the merged terminal outcome of a run.
type Terminal struct {
	Outcome Outcome
	Aborted bool      // the cancellation was an explicit abort
	At      time.Time // from the report that decided it
	Phase   Phase
}

// Resolve turns one report into a terminal outcome. A timeout is hard only
// in a hard-timeout phase or once the provider was reached. (seed)
func Resolve(r Report) Terminal {
	t := Terminal{At: r.At, Phase: r.Phase}
	switch r.Status {
	case StatusCompleted:
		t.Outcome = OutcomeCompleted
	case StatusFailed:
		t.Outcome = OutcomeFailed
	case StatusCancelled:
		t.Outcome = OutcomeCancelled
	case StatusAborted:
		t.Outcome, t.Aborted = OutcomeCancelled, true
	case StatusTimeout:
		t.Outcome = OutcomeTimeout
		if HardTimeoutPhase(r.Phase) || r.ProviderReached && r.Phase != PhaseLimit {
			t.Outcome = OutcomeHardTimeout
		}
	case StatusBlocked:
		t.Outcome = OutcomeBlocked
	}
	return t
}

// precedence ranks outcomes when several apply, OpenClaw's order (seed):
//
//	hard_timeout > blocked > aborted > cancelled > timeout > failed > completed > pending
func precedence(t Terminal) int {
	switch {
	case t.Outcome == OutcomeHardTimeout:
		return 7
	case t.Outcome == OutcomeBlocked:
		return 6
	case t.Outcome == OutcomeCancelled && t.Aborted:
		return 5
	case t.Outcome == OutcomeCancelled:
		return 4
	case t.Outcome == OutcomeTimeout:
		return 3
	case t.Outcome == OutcomeFailed:
		return 2
	case t.Outcome == OutcomeCompleted:
		return 1
	}
	return 0
}

// MergeOutcome merges what is known so far with a new source's word. The
// rules, in order:
//
//  1. Cancelled is sticky: once set it never changes (an abort included).
//  2. A timeout (hard or not) holds unless the other side is a completion
//     proven at or before the timeout (both times known). This cuts both
//     ways, so the result does not depend on which source reported first: a
//     late cleanup error cannot downgrade a timeout, and a completion that
//     beat the deadline is not turned into one. (The seed says it of
//     hard_timeout; steer's run time limit is a plain timeout, and the same
//     holds for it.)
//  3. Otherwise the higher precedence wins; equal precedence keeps what was
//     known.
func MergeOutcome(known, next Terminal) Terminal {
	switch {
	case known.Outcome == OutcomePending:
		return next
	case known.Outcome == OutcomeCancelled:
		return known
	case timedOut(known) && completedBy(next, known.At):
		return next
	case known.Outcome == OutcomeHardTimeout:
		return known
	case timedOut(next) && completedBy(known, next.At):
		return known
	case precedence(next) > precedence(known):
		return next
	}
	return known
}

func timedOut(t Terminal) bool {
	return t.Outcome == OutcomeTimeout || t.Outcome == OutcomeHardTimeout
}

// completedBy: t is a completion known to have happened at or before
// deadline.
func completedBy(t Terminal, deadline time.Time) bool {
	return t.Outcome == OutcomeCompleted && !t.At.IsZero() && !deadline.IsZero() && !t.At.After(deadline)
}

// Settle merges reports in the order they arrived.
func Settle(reports ...Report) Terminal {
	var t Terminal
	for _, r := range reports {
		t = MergeOutcome(t, Resolve(r))
	}
	return t
}
