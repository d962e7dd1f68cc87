package runner

// The soak test's checks: each is computed from what the fake provider
// saw (soak_test.go), so it holds for every interleaving of the runs.

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/failover"
	"github.com/steer-tui/steer/persistence"
)

// givenUp says, for each failed request of the log, whether its profile
// was given up on (and the failure handed to the ledger) rather than tried
// again: a same-profile retry is the run's next request, on the same
// profile and model. A rotation, a fallback or the run's end gives it up.
// So does a fallback that found no profile left and waited out a cooldown
// (cooldownwait.go): the chain then starts over, and its next request may
// be on the same profile and model again. Only the record can tell that
// from a retry, so for those requests decided (the recorded decision of
// each request, by log index) says: anything but continue_normal.
func givenUp(log []soakRequest, decided map[int]string) []bool {
	up := make([]bool, len(log))
	for _, seq := range byRun(log) {
		for i, s := range seq {
			if !log[s].fault.failure() || log[s].cancelled {
				continue
			}
			again := i+1 < len(seq) && log[seq[i+1]].profile == log[s].profile && log[seq[i+1]].model == log[s].model
			up[s] = !again || decided[s] != failover.DecisionContinueNormal.String()
		}
	}
	return up
}

// recordedDecisions reads the decision recorded for each request of the
// log, by log index, from the runs' records (where they line up).
func recordedDecisions(t *testing.T, store *persistence.Store, log []soakRequest, results []soakResult) map[int]string {
	t.Helper()
	decided := map[int]string{}
	runs := byRun(log)
	for run, res := range results {
		if !res.done {
			continue
		}
		attempts, err := store.RunAttempts(context.Background(), res.id)
		if err != nil || len(attempts) != len(runs[run]) {
			continue // checkRecords reports it
		}
		for i, s := range runs[run] {
			decided[s] = attempts[i].Decision
		}
	}
	return decided
}

// byRun is the log's indexes by run, in order.
func byRun(log []soakRequest) map[int][]int {
	out := map[int][]int{}
	for i, r := range log {
		out[r.run] = append(out[r.run], i)
	}
	return out
}

// checkOutcomes: every run ended, as its last request says — its answer,
// the error of a fault it was served (or of every profile cooling down),
// or, for the hang, its run timeout.
// withoutLockout is a run's error without the note lockedOutText adds when
// every profile cools down as the run ends: which window that names depends
// on what the other runs recorded meanwhile.
func withoutLockout(msg string) string {
	if i := strings.Index(msg, " — "); i >= 0 && soakLockout.MatchString(msg[i+len(" — "):]) {
		return msg[:i]
	}
	return msg
}

// soakLockout is lockedOutText's note.
var soakLockout = regexp.MustCompile(`^\S+ (cools down|is disabled) for \S+ until `)

func checkOutcomes(t *testing.T, plans [][]fault, log []soakRequest, results []soakResult) {
	t.Helper()
	runs := byRun(log)
	if stray := runs[-1]; len(stray) > 0 {
		t.Errorf("%d requests named no run", len(stray))
	}
	for run, res := range results {
		if !res.done {
			continue // reported where it failed
		}
		last, seq := res.last, runs[run]
		served := map[string]bool{}
		end := fault(-1)
		for _, s := range seq {
			end = log[s].fault
			if end.failure() {
				served[faults[end].err.Error()] = true
			}
		}
		noProfile := false
		if m := soakNoProfile.FindStringSubmatch(last.ErrorMessage); m != nil {
			reason, ok := failover.ParseReason(m[1])
			noProfile = ok && reason != failover.ReasonUnknown
		}
		var ok bool
		switch {
		case run == soakHangRun:
			ok = last.StopReason == agent.StopReasonAborted && last.ErrorMessage == AbortTimeout(soakHangTimeout) && res.timedOut
		case end == -1 || end == faultAnswerTool: // no profile left for the run's (next) request
			ok = last.StopReason == agent.StopReasonError && noProfile
		case end == faultAnswer || end == faultAnswerLength:
			ok = last.StopReason == faults[end].stop && last.TextContent() == soakAnswer(run)
		default:
			ok = last.StopReason == agent.StopReasonError && (served[withoutLockout(last.ErrorMessage)] || noProfile)
		}
		if !ok || (run != soakHangRun && res.timedOut) {
			t.Errorf("run %d (plan %v, %d requests) ended %s %q %q, timed out %v", run, plans[run], len(seq),
				last.StopReason, last.TextContent(), last.ErrorMessage, res.timedOut)
		}
	}
}

// checkToolCalls: every call of an answer ran exactly once, and no call
// from a message cut off by an error ran at all.
func checkToolCalls(t *testing.T, log []soakRequest, ran map[string]int) {
	t.Helper()
	for _, r := range log {
		if r.callID == "" {
			continue
		}
		want := 0
		if r.fault == faultAnswerTool && !r.cancelled {
			want = 1
		}
		if ran[r.callID] != want {
			t.Errorf("tool call %s (%s) ran %d times, want %d", r.callID, faults[r.fault].name, ran[r.callID], want)
		}
		delete(ran, r.callID)
	}
	if len(ran) > 0 {
		t.Errorf("tool calls no answer made ran: %v", ran)
	}
}

// soakOutcomes are the outcomes a run whose last message is last may be
// recorded with: an answer completed; an error failed, or a hard timeout
// when it is a timeout at the provider (a timeout text of a request that
// every cooling profile refused is a failure); an abort — only the hang
// run's, by its time limit at the provider — a hard timeout.
func soakOutcomes(last agent.Message) []string {
	switch last.StopReason {
	case agent.StopReasonError:
		if reasonOf(agent.AssistantEvent{Partial: last}) == failover.ReasonTimeout {
			return []string{OutcomeFailed, OutcomeHardTimeout}
		}
		return []string{OutcomeFailed}
	case agent.StopReasonAborted:
		return []string{OutcomeTimeout}
	}
	return []string{OutcomeCompleted}
}

// checkRecords: each run's record ended with the outcome of its last
// message and holds one attempt per request the provider saw, on its
// profile and model, with the reason its fault classifies as and the
// decision the failover rules give: a retry on the profile, a rotation to
// the next request's profile, a fallback to its model, or the end.
func checkRecords(t *testing.T, store *persistence.Store, log []soakRequest, up []bool, results []soakResult) {
	t.Helper()
	ctx := context.Background()
	runs := byRun(log)
	for run, res := range results {
		if !res.done {
			continue
		}
		rec, err := store.Run(ctx, res.id)
		if err != nil {
			t.Errorf("run %d: %v", run, err)
			continue
		}
		want := soakOutcomes(res.last)
		if rec.Ended.IsZero() || !slices.Contains(want, rec.Outcome) {
			t.Errorf("run %d: record ended %v with %q, want one of %q", run, rec.Ended, rec.Outcome, want)
		}
		if run == soakHangRun {
			continue // an attempt cut by the abort may go unrecorded
		}
		attempts, err := store.RunAttempts(ctx, res.id)
		if err != nil {
			t.Errorf("run %d: %v", run, err)
			continue
		}
		seq := runs[run]
		if len(attempts) != len(seq) {
			t.Errorf("run %d: %d attempts recorded, the provider saw %d requests", run, len(attempts), len(seq))
			continue
		}
		for i, s := range seq {
			r, a := log[s], attempts[i]
			var next *soakRequest
			if i+1 < len(seq) {
				next = &log[seq[i+1]]
			}
			reason, decisions := soakDecisions(r, up[s], next)
			if a.Profile != r.profile || a.Model != r.model || a.Reason != reason || !slices.Contains(decisions, a.Decision) {
				t.Errorf("run %d attempt %d: recorded %s %s %q %q; the provider saw %s on %s %s, want reason %q and a decision in %q",
					run, i+1, a.Profile, a.Model, a.Reason, a.Decision, faults[r.fault].name, r.profile, r.model, reason, decisions)
			}
		}
	}
}

// soakDecisions is the reason and the decisions an attempt's record may
// carry, given how its request went and the run's next request.
func soakDecisions(r soakRequest, up bool, next *soakRequest) (reason string, decisions []string) {
	spec := faults[r.fault]
	switch {
	case !r.fault.failure():
		return "", []string{""}
	case !up:
		return spec.reason.String(), []string{failover.DecisionContinueNormal.String()}
	case spec.before != "": // partly delivered: nothing to decide
		return spec.reason.String(), []string{""}
	case next != nil && next.model == r.model && next.profile == r.profile: // given up, then a cooldown waited out
		return spec.reason.String(), []string{failover.DecisionFallbackModel.String(), failover.DecisionSurfaceError.String()}
	case next != nil && next.model == r.model: // a rotation, or a give-up, a cooldown waited out and the chain again
		return spec.reason.String(), []string{failover.DecisionRotateProfile.String(), failover.DecisionFallbackModel.String(), failover.DecisionSurfaceError.String()}
	case next != nil: // a fallback, or a give-up, a cooldown waited out and the chain again
		return spec.reason.String(), []string{failover.DecisionFallbackModel.String(), failover.DecisionSurfaceError.String()}
	}
	// The run's end: surfaced, or a fallback to models with no profile left.
	return spec.reason.String(), []string{failover.DecisionSurfaceError.String(), failover.DecisionFallbackModel.String()}
}

// checkLedger: each profile's lifetime counts are exactly the ledgered
// failures it was given up on and the answers it gave; what the failure
// window holds (reason counts, the cooldown) came from those failures.
func checkLedger(t *testing.T, ledger failover.Ledger, log []soakRequest, up []bool) {
	t.Helper()
	type expect struct {
		failures, successes int
		reasons             failover.ReasonCounts
		models              map[string]bool // the ids of the models it failed on
	}
	want := map[string]*expect{}
	for _, ids := range soakProfiles {
		for _, id := range ids {
			want[id] = &expect{models: map[string]bool{}}
		}
	}
	for i, r := range log {
		e := want[r.profile]
		spec := faults[r.fault]
		switch {
		case r.cancelled:
		case r.fault.success():
			e.successes++
		case up[i] && spec.ledgered:
			e.failures++
			e.reasons[spec.reason]++
			_, model, _ := strings.Cut(r.model, "/")
			e.models[model] = true
		}
	}
	for id, e := range want {
		st, err := ledger.Load(context.Background(), id)
		if err != nil {
			t.Error(err)
			continue
		}
		if st.Failures != e.failures || st.Successes != e.successes {
			t.Errorf("%s: the ledger counts %d failures and %d successes, the provider injected %d ledgered failures given up on and served %d answers",
				id, st.Failures, st.Successes, e.failures, e.successes)
		}
		for reason, n := range st.ReasonCounts {
			if n > e.reasons[reason] {
				t.Errorf("%s: %d %s failures in the window, %d injected", id, n, failover.Reason(reason), e.reasons[reason])
			}
		}
		if st.Failures > 0 && e.reasons[st.LastFailureReason] == 0 {
			t.Errorf("%s: the last failure is %s, never injected", id, st.LastFailureReason)
		}
		cooling := !st.CooldownUntil.IsZero()
		if cooling && (e.reasons[st.CooldownReason] == 0 || st.CooldownModel != "" && !e.models[st.CooldownModel]) {
			t.Errorf("%s: cooling down for %s on %q, injected %v on %v", id, st.CooldownReason, st.CooldownModel, e.reasons, e.models)
		}
		if !st.DisabledUntil.IsZero() {
			t.Errorf("%s: disabled for %s, which nothing injected", id, st.DisabledReason)
		}
	}
}

// checkSkips: a request's first attempt on a model skips the profiles
// configured before its own only when they are cooling down, which takes
// a ledgered failure given up on earlier (on any model: a cooldown widens
// to the profile when another model fails inside it).
func checkSkips(t *testing.T, log []soakRequest, up []bool) (skipped int) {
	t.Helper()
	failedBefore := func(profile string, before int) bool {
		for i := range before {
			if log[i].profile == profile && up[i] && faults[log[i].fault].ledgered {
				return true
			}
		}
		return false
	}
	for run, seq := range byRun(log) {
		tried := map[string]bool{} // models tried in the request under way
		for _, s := range seq {
			r := log[s]
			if !tried[r.model] {
				tried[r.model] = true
				provider, _, _ := strings.Cut(r.model, "/")
				order := soakProfiles[provider]
				for _, earlier := range order[:slices.Index(order, r.profile)] {
					skipped++
					if !failedBefore(earlier, s) {
						t.Errorf("run %d: request %d went to %s on %s, skipping %s, which had no ledgered failure", run, s, r.profile, r.model, earlier)
					}
				}
			}
			if r.fault.success() {
				clear(tried) // the next request of the run starts over
			}
		}
	}
	return skipped
}

// soakCoverage summarises what the run went through, for the log.
func soakCoverage(log []soakRequest, up []bool, results []soakResult) string {
	served := make([]int, len(faults))
	absorbed, ledgered := 0, 0
	for i, r := range log {
		served[r.fault]++
		switch {
		case r.fault.failure() && !up[i] && !r.cancelled:
			absorbed++
		case up[i] && faults[r.fault].ledgered:
			ledgered++
		}
	}
	ends := map[agent.StopReason]int{}
	noProfile := 0
	for _, res := range results {
		ends[res.last.StopReason]++
		if soakNoProfile.MatchString(res.last.ErrorMessage) {
			noProfile++
		}
	}
	var kinds []string
	for f, n := range served {
		kinds = append(kinds, fmt.Sprintf("%s %d", faults[f].name, n))
	}
	return fmt.Sprintf("served: %v; %d failures retried on their profile, %d ledgered; runs ended %v, %d with every profile cooling down",
		kinds, absorbed, ledgered, ends, noProfile)
}
