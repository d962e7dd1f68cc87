package failover

import (
	"testing"
	"time"
)

func TestResolve(t *testing.T) {
	cases := []struct {
		name string
		r    Report
		want Outcome
	}{
		{"completed", Report{Status: StatusCompleted}, OutcomeCompleted},
		{"failed", Report{Status: StatusFailed}, OutcomeFailed},
		{"cancelled", Report{Status: StatusCancelled}, OutcomeCancelled},
		{"aborted is a cancel", Report{Status: StatusAborted}, OutcomeCancelled},
		{"blocked", Report{Status: StatusBlocked}, OutcomeBlocked},
		{"timeout at the provider is hard", Report{Status: StatusTimeout, Phase: PhaseProvider}, OutcomeHardTimeout},
		{"timeout in preflight is hard", Report{Status: StatusTimeout, Phase: PhasePreflight}, OutcomeHardTimeout},
		{"timeout after the turn is hard", Report{Status: StatusTimeout, Phase: PhasePostTurn}, OutcomeHardTimeout},
		{"timeout in the queue is not", Report{Status: StatusTimeout, Phase: PhaseQueue}, OutcomeTimeout},
		{"timeout while draining is not", Report{Status: StatusTimeout, Phase: PhaseDrain}, OutcomeTimeout},
		{"timeout of unknown phase is not", Report{Status: StatusTimeout}, OutcomeTimeout},
		{"timeout once the provider was reached is hard", Report{Status: StatusTimeout, Phase: PhaseDrain, ProviderReached: true}, OutcomeHardTimeout},
	}
	for _, c := range cases {
		if got := Resolve(c.r).Outcome; got != c.want {
			t.Errorf("%s: Resolve = %s, want %s", c.name, got, c.want)
		}
	}
	if !Resolve(Report{Status: StatusAborted}).Aborted {
		t.Error("an abort lost its mark")
	}
}

// TestOutcomeStickyAndPrecedence is the seed's merge of a run's terminal
// outcome (seed 000 §4.4, SPEC §5.5): cancelled never changes, a hard
// timeout holds unless a completion is proven at or before its moment, and
// otherwise hard_timeout > blocked > aborted > cancelled > timeout > failed
// > completed, whatever order the sources report in.
func TestOutcomeStickyAndPrecedence(t *testing.T) {
	deadline := at(time.Minute)
	hard := Report{Status: StatusTimeout, Phase: PhaseProvider, At: deadline}
	soft := Report{Status: StatusTimeout, Phase: PhaseQueue, At: deadline}
	doneBefore := Report{Status: StatusCompleted, At: at(59 * time.Second)}
	doneAt := Report{Status: StatusCompleted, At: deadline}
	doneAfter := Report{Status: StatusCompleted, At: at(61 * time.Second)}
	doneSometime := Report{Status: StatusCompleted}
	failed := Report{Status: StatusFailed, At: at(2 * time.Minute)}
	cancelled := Report{Status: StatusCancelled}
	aborted := Report{Status: StatusAborted}
	blocked := Report{Status: StatusBlocked}
	lateCleanup := Report{Status: StatusFailed, At: at(61 * time.Second)}
	cancelledEarly := Report{Status: StatusCancelled, At: at(30 * time.Second)}
	cases := []struct {
		name        string
		reports     []Report
		want        Outcome
		wantAborted bool
	}{
		{"nothing reported", nil, OutcomePending, false},
		{"completed", []Report{doneSometime}, OutcomeCompleted, false},
		{"failed beats completed", []Report{doneSometime, failed}, OutcomeFailed, false},
		{"completed does not clear a failure", []Report{failed, doneSometime}, OutcomeFailed, false},
		{"timeout beats failed", []Report{failed, soft}, OutcomeTimeout, false},
		{"cancelled beats timeout", []Report{soft, cancelled}, OutcomeCancelled, false},
		{"aborted beats cancelled", []Report{failed, aborted}, OutcomeCancelled, true},
		{"blocked beats aborted", []Report{blocked, aborted}, OutcomeBlocked, false},
		{"hard timeout beats blocked", []Report{blocked, hard}, OutcomeHardTimeout, false},
		{"cancelled is sticky against a hard timeout", []Report{cancelled, hard}, OutcomeCancelled, false},
		{"cancelled is sticky against blocked", []Report{cancelled, blocked}, OutcomeCancelled, false},
		{"cancelled stays plain against a later abort", []Report{cancelled, aborted}, OutcomeCancelled, false},
		{"hard timeout holds against a late cleanup error", []Report{hard, failed}, OutcomeHardTimeout, false},
		{"hard timeout holds against a late cancel", []Report{hard, cancelled}, OutcomeHardTimeout, false},
		{"hard timeout holds against a completion after it", []Report{hard, doneAfter}, OutcomeHardTimeout, false},
		{"hard timeout holds against a completion of unknown time", []Report{hard, doneSometime}, OutcomeHardTimeout, false},
		{"completion before the timeout wins", []Report{hard, doneBefore}, OutcomeCompleted, false},
		{"completion at the timeout wins", []Report{hard, doneAt}, OutcomeCompleted, false},
		{"a proven completion holds against a later-reported hard timeout", []Report{doneBefore, hard}, OutcomeCompleted, false},
		{"a completion after the deadline does not", []Report{doneAfter, hard}, OutcomeHardTimeout, false},
		{"a completion before a soft timeout wins too", []Report{doneBefore, soft}, OutcomeCompleted, false},
		{"a soft timeout holds against a completion after it", []Report{soft, doneAfter}, OutcomeTimeout, false},
		{"the run's time limit is soft wherever it struck", []Report{{Status: StatusTimeout, Phase: PhaseLimit, ProviderReached: true, At: deadline}}, OutcomeTimeout, false},
		{"a late cleanup error after a hard timeout stays hard_timeout", []Report{hard, lateCleanup}, OutcomeHardTimeout, false},
		{"a cleanup error reported first does not stop a later hard timeout", []Report{lateCleanup, hard}, OutcomeHardTimeout, false},
		{"a hard timeout holds against a late abort", []Report{hard, aborted}, OutcomeHardTimeout, false},
		{"a hard timeout holds against everything after it", []Report{hard, failed, cancelled, blocked, doneAfter}, OutcomeHardTimeout, false},
		{"a completion before the timeout wins even after a cleanup error", []Report{hard, lateCleanup, doneBefore}, OutcomeCompleted, false},
		{"cancelled never changes", []Report{cancelledEarly, hard, blocked, failed, doneBefore}, OutcomeCancelled, false},
		{"an abort is sticky like any cancel", []Report{aborted, hard, blocked}, OutcomeCancelled, true},
		{"a cancel after a soft timeout wins by precedence and then sticks", []Report{soft, cancelled, hard}, OutcomeCancelled, false},
		{"a soft timeout outranks a later failure", []Report{soft, failed}, OutcomeTimeout, false},
		{"blocked beats a failure either way", []Report{failed, blocked}, OutcomeBlocked, false},
		{"blocked is not undone by a completion", []Report{blocked, doneSometime}, OutcomeBlocked, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Settle(c.reports...)
			if got.Outcome != c.want || got.Aborted != c.wantAborted {
				t.Errorf("Settle = %s (aborted %v), want %s (aborted %v)", got.Outcome, got.Aborted, c.want, c.wantAborted)
			}
		})
	}
}

func TestOutcomeCodes(t *testing.T) {
	want := []string{"pending", "completed", "failed", "cancelled", "timeout", "hard_timeout", "blocked"}
	for i, code := range want {
		if got := Outcome(i).String(); got != code {
			t.Errorf("Outcome(%d) = %q, want %q", i, got, code)
		}
	}
}
