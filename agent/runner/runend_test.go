package runner

import (
	"reflect"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/failover"
)

func TestOutcomeWords(t *testing.T) {
	words := map[failover.Outcome]string{
		failover.OutcomeCompleted: OutcomeCompleted, failover.OutcomeFailed: OutcomeFailed,
		failover.OutcomeCancelled: OutcomeCancelled, failover.OutcomeTimeout: OutcomeTimeout,
		failover.OutcomeHardTimeout: OutcomeHardTimeout, failover.OutcomeBlocked: OutcomeBlocked,
	}
	for o, word := range words {
		if o.String() != word {
			t.Errorf("failover says %q, the runner %q", o, word)
		}
	}
}

// TestSettleRun: how a run ended, from what the runtime saw of it, and the
// reason its run_end and record give.
func TestSettleRun(t *testing.T) {
	fired := time.Unix(1000, 0)
	limit := AbortTimeout(time.Minute)
	answer := func(at time.Time) agent.Message {
		return agent.Message{Role: agent.RoleAssistant, StopReason: agent.StopReasonStop, Timestamp: at, Content: []agent.Content{agent.Text("ok")}}
	}
	failure := func(text string) agent.Message {
		return agent.Message{Role: agent.RoleAssistant, StopReason: agent.StopReasonError, ErrorMessage: text, Timestamp: fired}
	}
	aborted := func(reason string) agent.Message {
		return agent.Message{Role: agent.RoleAssistant, StopReason: agent.StopReasonAborted, ErrorMessage: reason, Timestamp: fired.Add(time.Second)}
	}
	cases := []struct {
		name        string
		e           runEvidence
		want        failover.Outcome
		wantReason  string
		wantAborted bool
	}{
		{"nothing added", runEvidence{}, failover.OutcomeCompleted, "", false},
		{"an answer", runEvidence{last: answer(fired), admitted: true, reached: true, lastReached: true}, failover.OutcomeCompleted, "", false},
		{"a run ended by its tools", runEvidence{last: agent.Message{Role: agent.RoleToolResult}}, failover.OutcomeCompleted, "", false},
		{"a provider error", runEvidence{last: failure("500 internal server error"), admitted: true, reached: true, lastReached: true},
			failover.OutcomeFailed, "server_error", false},
		{"an error with nothing to go on has no reason", runEvidence{last: failure(""), admitted: true, reached: true, lastReached: true},
			failover.OutcomeFailed, "", false},
		{"the overflow chain gave up", runEvidence{last: failure("prompt is too long"), gaveUp: "context_overflow", admitted: true, reached: true, lastReached: true},
			failover.OutcomeFailed, "context_overflow", false},
		{"the compaction failed", runEvidence{last: failure("prompt is too long"), gaveUp: "compaction_failure", admitted: true, reached: true, lastReached: true},
			failover.OutcomeFailed, "compaction_failure", false},
		{"a stall at the provider is a hard timeout", runEvidence{last: failure("request timed out"), admitted: true, reached: true, lastReached: true},
			failover.OutcomeHardTimeout, "timeout", false},
		{"a timeout text without an attempt is a failure", runEvidence{last: failure("every auth profile of p is in cooldown (timeout)"), admitted: true, reached: true},
			failover.OutcomeFailed, "timeout", false},
		{"the user's abort", runEvidence{last: aborted(agent.AbortedMessage), admitted: true, reached: true}, failover.OutcomeCancelled, "", true},
		{"a quit", runEvidence{last: aborted(AbortQuit), admitted: true, reached: true}, failover.OutcomeCancelled, "", false},
		{"the time limit while queued is a timeout", runEvidence{last: aborted(limit), timeoutReason: limit, timeoutAt: fired},
			failover.OutcomeTimeout, "", false},
		{"the time limit at the provider is a timeout: steer's clock, not the model's", runEvidence{last: aborted(limit), admitted: true, reached: true, timeoutReason: limit, timeoutAt: fired},
			failover.OutcomeTimeout, "", false},
		{"the time limit before any attempt is a timeout", runEvidence{last: aborted(limit), admitted: true, timeoutReason: limit, timeoutAt: fired},
			failover.OutcomeTimeout, "", false},
		{"the lane's silence timeout", runEvidence{last: aborted("lanes: run r made no progress"), admitted: true, reached: true, timeoutReason: "lanes: run r made no progress"},
			failover.OutcomeTimeout, "", false},
		{"an abort before the time limit stays cancelled", runEvidence{last: aborted(agent.AbortedMessage), admitted: true, reached: true, timeoutReason: limit, timeoutAt: fired},
			failover.OutcomeCancelled, "", true},
		{"an answer no later than the limit wins", runEvidence{last: answer(fired), admitted: true, reached: true, lastReached: true, timeoutReason: limit, timeoutAt: fired},
			failover.OutcomeCompleted, "", false},
		{"an answer after the limit does not", runEvidence{last: answer(fired.Add(time.Second)), admitted: true, reached: true, lastReached: true, timeoutReason: limit, timeoutAt: fired},
			failover.OutcomeTimeout, "", false},
		{"an answer when the limit's moment is unknown does not", runEvidence{last: answer(fired), admitted: true, reached: true, lastReached: true, timeoutReason: limit},
			failover.OutcomeTimeout, "", false},
		{"a late error after the limit stays a timeout", runEvidence{last: failure("500 internal server error"), admitted: true, reached: true, lastReached: true, timeoutReason: limit, timeoutAt: fired},
			failover.OutcomeTimeout, "server_error", false},
		{"a provider stall that ends the run before the limit is a hard timeout", runEvidence{last: failure("request timed out"), admitted: true, reached: true, lastReached: true, timeoutReason: limit, timeoutAt: fired},
			failover.OutcomeHardTimeout, "timeout", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := settleRun(c.e)
			reason := runEndReason(c.e, got.Outcome)
			if got.Outcome != c.want || got.Aborted != c.wantAborted || reason != c.wantReason {
				t.Errorf("settleRun = %s (aborted %v), reason %q; want %s (aborted %v), reason %q",
					got.Outcome, got.Aborted, reason, c.want, c.wantAborted, c.wantReason)
			}
		})
	}
}

// TestRunEndsObserve: the run's events decide whether its attempts reached
// the provider, and whether the request of its last message did; settle
// turns that into the RunEnd every subscriber hears after agent_end.
func TestRunEndsObserve(t *testing.T) {
	start := agent.Annotation{Kind: AnnotationAttemptStart, Data: AttemptInfo{Profile: "p:a"}}
	answer := agent.MessageEnd{Message: agent.Message{Role: agent.RoleAssistant}}
	timedOut := agent.Message{Role: agent.RoleAssistant, StopReason: agent.StopReasonError,
		Error: &agent.ProviderError{Kind: agent.ErrorTimeout, Message: "no progress for 60s"}, ErrorMessage: "timeout: no progress for 60s"}
	cases := []struct {
		name   string
		events []agent.Event
		want   RunEnd
	}{
		{"a timeout after an attempt is a hard timeout", []agent.Event{agent.AgentStart{}, start, answer},
			RunEnd{RunID: "r1", Outcome: OutcomeHardTimeout, Reason: "timeout"}},
		{"a timeout no attempt made is a failure", []agent.Event{agent.AgentStart{}, answer},
			RunEnd{RunID: "r1", Outcome: OutcomeFailed, Reason: "timeout"}},
		{"agent_start forgets the last run's attempts", []agent.Event{start, agent.AgentStart{}, answer},
			RunEnd{RunID: "r1", Outcome: OutcomeFailed, Reason: "timeout"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var ends runEnds
			for _, ev := range tc.events {
				ends.observe(ev)
			}
			ends.settle(runEvidence{last: timedOut, admitted: true}, "r1")
			var heard []agent.Event
			ends.withRunEnd(func(ev agent.Event) { heard = append(heard, ev) })(agent.AgentEnd{})
			want := []agent.Event{agent.AgentEnd{}, agent.Annotation{Kind: AnnotationRunEnd, Data: tc.want}}
			if !reflect.DeepEqual(heard, want) {
				t.Errorf("heard %+v, want %+v", heard, want)
			}
			if _, errText := ends.last(); errText != timedOut.ErrorMessage {
				t.Errorf("record error %q, want %q", errText, timedOut.ErrorMessage)
			}
		})
	}
}
