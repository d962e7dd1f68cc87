package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/failover"
)

// Waiting out a cooldown (failover.DecideCooldownWait): when a request has
// no candidate left to try because each is cooling down — one 429 on the
// only key, or a window an earlier process left in the shared ledger — and
// the soonest window is transient and ends within
// auth.maxCooldownWaitSeconds, the request waits for it, announced as an
// auto_retry_start with Cooldown set (the TUI and steer run count it down),
// and tries the chain again. Otherwise the error goes out at once, saying
// until when and how to clear the window. The run timeout still applies:
// the wait ends with the run's context.

// chainWaiting is what the request's candidates wait for now, over every
// model of chain, read from the ledger; available says one may be tried.
func (a *attempts) chainWaiting(q *attemptRun, chain []agent.Model) (waiting []failover.Waiting, available bool) {
	now := a.now()
	for _, m := range chain {
		for _, c := range q.ready(a.profiles.order(q.ctx, a.catalog.providerOf(m), m), m, now) {
			switch {
			case c.Eligibility == failover.EligibleOK:
				available = true
			case c.Eligibility.Waits():
				waiting = append(waiting, failover.Waiting{Profile: c.ID, Model: m.Ref(),
					Status: c.State.Status(now), HintEnd: q.hintEnds[c.ID+" "+m.Ref()]})
			}
		}
	}
	return waiting, available
}

// ready marks as eligible the candidates of m whose window the request has
// waited out by a hint shorter than the ledger's window: the provider said
// to come back now, and the ledger's window (for other requests) stays.
func (q *attemptRun) ready(cands []failover.Candidate, m agent.Model, now time.Time) []failover.Candidate {
	for i, c := range cands {
		if end, ok := q.hintEnds[c.ID+" "+m.Ref()]; ok && c.Eligibility.Waits() && !end.After(now) {
			cands[i].Eligibility = failover.EligibleOK
		}
	}
	return passTimeoutCooldowns(q.ctx, cands, m, now)
}

// noteHint remembers when the provider said profile id may serve m again,
// when that is sooner than the ledger's window it opened.
func (q *attemptRun) noteHint(id string, m agent.Model, perr *agent.ProviderError, now time.Time) {
	if perr == nil {
		return
	}
	if hint, ok := failover.RetryHint(perr.Status, perr.Header, now); ok && hint.After > 0 {
		if q.hintEnds == nil {
			q.hintEnds = map[string]time.Time{}
		}
		q.hintEnds[id+" "+m.Ref()] = now.Add(hint.After)
	}
}

// waitForCooldown decides whether the request, out of candidates, waits
// for the soonest cooldown; when it does, it waits (true: try the chain
// again). When it does not, last — the error about to go out — learns until
// when the request is locked out and how to clear it.
func (a *attempts) waitForCooldown(q *attemptRun, chain []agent.Model, last *attempt) bool {
	if q.ctx.Err() != nil {
		return false
	}
	waiting, available := a.chainWaiting(q, chain)
	now := a.now()
	verdict := failover.DecideCooldownWait(failover.WaitFacts{Waiting: waiting, Available: available,
		Waits: q.cooldownWaits, TimeoutWaits: q.timeoutWaits, Now: now}, a.failover)
	if !verdict.Wait {
		if verdict.Soonest.Profile != "" && last != nil && verdict.Rule != "available" {
			last.final.Partial.ErrorMessage = lockedOutText(last.final.Partial.ErrorMessage, verdict, now)
		}
		if last != nil && !available {
			last.final.Partial.ErrorMessage = a.profiles.choice.lockNote(last.final.Partial.ErrorMessage)
		}
		return false
	}
	q.cooldownWaits++
	w := verdict.Soonest
	if w.Status.Reason == failover.ReasonTimeout {
		q.timeoutWaits++
	}
	info := RetryStartInfo{Attempt: q.cooldownWaits, MaxAttempts: failover.MaxCooldownWaits,
		DelayMs: verdict.Delay.Milliseconds(), Reason: w.Status.Reason.String(), Profile: w.Profile, Model: w.Model,
		Cooldown: true, Until: timeOrNil(w.Status.Until)}
	if last != nil {
		info.ErrorMessage = last.final.Partial.ErrorMessage
	}
	annotate(q.ctx, q.out, AnnotationRetryStart, info)
	if a.wait(q.ctx, verdict.Delay) != nil {
		q.waitsEnded = true
		annotate(context.Background(), q.out, AnnotationRetryEnd, RetryEndInfo{Attempt: q.cooldownWaits, FinalError: agent.AbortReason(q.ctx)})
		last.final = abortedEvent(q.ctx, chain[0], a.now())
		return false
	}
	q.failures, q.reasons = nil, nil
	return true
}

// lockedOutText adds to a request's error until when its soonest window
// lasts, and how to clear it: "… — openai:a cools down for rate_limit until
// 20:40:01, in 9m59s; clear it with /profiles → c, or steer inspect
// profiles --clear openai:a".
func lockedOutText(text string, v failover.CooldownWait, now time.Time) string {
	w := v.Soonest
	what := "cools down"
	if w.Status.State == failover.StateDisabled {
		what = "is disabled"
	}
	left := w.Status.Until.Sub(now).Round(time.Second)
	note := fmt.Sprintf("%s %s for %s until %s, in %s; clear it with /profiles → c, or steer inspect profiles --clear %s",
		w.Profile, what, w.Status.Reason, w.Status.Until.Local().Format(time.TimeOnly), left, w.Profile)
	if v.Rule == "waits_disabled" {
		note += " (auth.maxCooldownWaitSeconds is 0: no wait)"
	}
	if text == "" {
		return note
	}
	return text + " — " + note
}

// endCooldownWaits ends the request's cooldown waits, if it made any, with
// how the last went: pi's auto_retry_end after its auto_retry_start.
func (q *attemptRun) endCooldownWaits(last attempt) {
	if q.cooldownWaits == 0 || q.waitsEnded {
		return
	}
	q.waitsEnded = true
	end := RetryEndInfo{Success: !last.failed(), Attempt: q.cooldownWaits}
	if !end.Success {
		end.FinalError = last.final.Partial.ErrorMessage
	}
	annotate(q.ctx, q.out, AnnotationRetryEnd, end)
}
