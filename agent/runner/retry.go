package runner

import (
	"context"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/failover"
)

// Same-profile retries (SPEC §5.2's continue_normal): a transient failure —
// a stall cut by the watchdog, an overloaded or rate-limited provider that
// said to come back within MaxRetryWait — is tried again on the profile and
// model that just failed, after the wait failover.DecideRetry gives, before
// the decision moves on. Each retry is announced in pi's shapes
// (auto_retry_start, auto_retry_end); the wait runs on Options.Sleep and
// ends at once on abort. A failure retried on its profile reaches the
// shared ledger only when the profile is given up on, so a blip that a
// retry absorbed cools nothing down for the other sessions.

// failed is an attempt that failed for good on its profile: what Decide
// needs, and what its attempt_end and auto_retry_end say.
type failed struct {
	attempt
	stage   failover.Stage
	reason  failover.Reason
	info    AttemptInfo // the attempt_end, without its decision
	retries int         // same-profile retries made before it
}

// onProfile runs attempts on profile id of t until one answers (done), the
// request cannot go on (done: delivered, aborted), or a failure is not
// retried on this profile: that one comes back, written to the ledger.
func (a *attempts) onProfile(q *attemptRun, t target, id string) (failed, bool) {
	model := t.model
	for retries := 0; ; retries++ {
		f, done := a.attemptOnce(q, t, id, retries)
		if done {
			return failed{}, true
		}
		perr := f.final.Partial.Error
		if f.delivered || q.ctx.Err() != nil {
			if q.ctx.Err() == nil {
				a.profiles.recordFailure(q.ctx, q.out, id, model, f.reason, perr)
			}
			annotate(q.ctx, q.out, AnnotationAttemptEnd, f.info)
			f.endRetries(q)
			surface(f.attempt, q.out)
			return failed{}, true // partly out already, or aborted: nothing to retry
		}
		var hint failover.Hint
		if perr != nil {
			hint, _ = failover.RetryHint(perr.Status, perr.Header, a.now())
		}
		retry := failover.DecideRetry(failover.RetryFacts{Reason: f.reason, Hint: hint, Retries: retries,
			Attempts: q.count, Profiles: t.profiles}, a.failover)
		if !retry.Retry || q.tc.skipsRetry(f.reason) {
			a.profiles.recordFailure(q.ctx, q.out, id, model, f.reason, perr)
			return f, false
		}
		f.info.Decision = failover.DecisionContinueNormal.String()
		annotate(q.ctx, q.out, AnnotationAttemptEnd, f.info)
		start := RetryStartInfo{Attempt: retries + 1, MaxAttempts: retry.Max, DelayMs: retry.Delay.Milliseconds(),
			ErrorMessage: f.final.Partial.ErrorMessage, Reason: f.info.Reason, Profile: id, Model: model.Ref()}
		if retry.Delay > 0 && retry.Delay == hint.After {
			start.DelaySource = hint.Source
		}
		annotate(q.ctx, q.out, AnnotationRetryStart, start)
		if a.wait(q.ctx, retry.Delay) != nil {
			// ctx is done: the consumer still reads until the final event,
			// so these go out regardless.
			annotate(context.Background(), q.out, AnnotationRetryEnd, RetryEndInfo{Attempt: retries + 1, FinalError: agent.AbortReason(q.ctx)})
			q.out.Push(context.Background(), abortedEvent(q.ctx, model, a.now()))
			return failed{}, true
		}
	}
}

// attemptOnce makes one attempt on profile id of t, the retries-th retry on
// it. An answer goes out (done); a failure comes back classified, its
// attempt_end not yet announced.
func (a *attempts) attemptOnce(q *attemptRun, t target, id string, retries int) (failed, bool) {
	prov, model := t.prov, t.model
	q.count++
	o := q.opts
	o.Profile, o.APIKey = id, prov.key(id)
	key := id + " " + model.Ref()
	if q.first == "" {
		q.first = key
	}
	switched := key != q.first
	if switched {
		// A switch is a clean start: the thinking level goes back to its
		// initial value (SPEC §5.3). (seed)
		o.Thinking = a.catalog.defaultThinking(model)
	}
	info := AttemptInfo{Profile: id, Model: model.Ref(), Attempt: q.count}
	annotate(q.ctx, q.out, AnnotationAttemptStart, info)
	began := time.Now()
	var got attempt
	if src := prov.Stream(q.ctx, model, q.llm, o); src != nil {
		got = forward(q.ctx, src, q.out, t.holding(q))
	} else {
		got.final = failedEvent(model, "the provider returned no stream", a.now())
	}
	info.DurationMs = time.Since(began).Milliseconds()
	// An answer that came may still count as a failure (SPEC §5.4): nothing
	// in it, or only reasoning or a plan, all held back (forward).
	result := failover.ClassifyResult(failover.Result{Delivered: got.delivered, Reasoning: got.thought, PlanningOnly: got.planned})
	empty := !got.failed() && result.Failed()
	if !got.failed() && !empty {
		annotate(q.ctx, q.out, AnnotationAttemptEnd, info)
		if retries > 0 {
			annotate(q.ctx, q.out, AnnotationRetryEnd, RetryEndInfo{Success: true, Attempt: retries})
		}
		q.endCooldownWaits(got)
		q.out.Push(context.Background(), got.final)
		a.profiles.recordSuccess(id)
		if switched {
			a.resetThinking(model)
		}
		return failed{}, true
	}
	f := failed{attempt: got, stage: failover.StagePrompt, reason: failover.ReasonEmptyResponse, info: info, retries: retries}
	switch {
	case empty:
		f.stage, f.info.Result = failover.StageAssistant, result.String()
	case got.final.Partial.Error != nil:
		f.reason = failover.ClassifyFor(model, got.final.Partial.Error, nil) // with the provider's hook
	default:
		f.reason = failover.Classify(0, got.final.Partial.ErrorMessage)
	}
	f.info.Reason = f.reason.String()
	return f, false
}

// endRetries ends a sequence of same-profile retries that failed: its last
// attempt's error is the final one.
func (f failed) endRetries(q *attemptRun) {
	if f.retries > 0 {
		annotate(q.ctx, q.out, AnnotationRetryEnd, RetryEndInfo{Attempt: f.retries, FinalError: f.final.Partial.ErrorMessage})
	}
}

// wait waits d on sleep, or until ctx is done.
func (a *attempts) wait(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	return a.sleep(ctx, d)
}

// abortedEvent ends a request aborted while it waited to retry.
func abortedEvent(ctx context.Context, m agent.Model, at time.Time) agent.AssistantEvent {
	msg := agent.Message{Role: agent.RoleAssistant, API: m.API, Provider: m.Provider, Model: m.ID,
		StopReason: agent.StopReasonAborted, ErrorMessage: agent.AbortReason(ctx), Timestamp: at, Content: []agent.Content{}}
	return agent.AssistantEvent{Type: agent.EventError, Reason: agent.StopReasonAborted, Partial: msg}
}
