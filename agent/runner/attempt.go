package runner

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/failover"
)

// The attempt loop (SPEC §7.3, §5): every request the kernel makes goes
// through attempts. An attempt is one auth profile of one model; a failure
// that comes before anything was streamed is classified and, when it is
// transient, retried on the same profile (retry.go); otherwise it is written
// to the shared ledger and decided on — rotate to the next profile, fall
// back to the next model of the chain, or surface the error. What was
// already streamed cannot be taken back, so a failure after content ends the
// request as the provider ended it (and is still ledgered).

// attempts is the attempt loop: it runs a request over the profiles of its
// model and the fallback chain (SPEC §5), retries on a profile, waits out
// cooldowns, and stops for the timeout chain's compaction. It may call the
// catalog, the ledger use (profileLedger) and the funcs below, and pushes
// only to the request's stream; it knows nothing of sessions, lanes or the
// guard, which wraps it (Runtime.attemptStream).
type attempts struct {
	catalog  *catalog
	profiles *profileLedger
	failover failover.Config
	now      func() time.Time
	// sleep waits before a retry or for a cooldown (Options.Sleep, else
	// agent.Sleep).
	sleep func(ctx context.Context, d time.Duration) error
	log   *slog.Logger
	// resetThinking gives the session m's default thinking level back when
	// an attempt after a switch of profile or model answered
	// (thinkingChoice.reset).
	resetThinking func(m agent.Model)
	// timeoutCompactions is how often the run under way compacted for a
	// timeout (the guard's count), which the failover decision weighs.
	timeoutCompactions func() int
}

// attemptStream is the StreamFn the Agent calls for model m: the request
// takes the context files as they are now (memory.go), goes through the
// context guard (guard.go), then the attempts, and the one that answers
// streams out.
func (r *Runtime) attemptStream(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
	llm.SystemPrompt = r.library.withSkills(llm.SystemPrompt) // as the skills are now (library.go)
	return r.attempts.goStream(m, func(out *agent.AssistantStream) {
		r.sessionHooks.beforeRequest(ctx)
		llm.SystemPrompt = r.planDesk.prompt(r.memory.prompt(llm.SystemPrompt))
		r.keeper.guardedAttempts(ctx, m, llm, opts, out)
	})
}

// stream is the attempt loop alone as a StreamFn: no guard, no lanes (the
// summary of a compaction, a request already guarded).
func (a *attempts) stream(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
	return a.goStream(m, func(out *agent.AssistantStream) { a.run(ctx, m, llm, opts, out, nil) })
}

// goStream runs fill into a new stream on a goroutine of its own and ends
// the stream when fill returns. The loop's recovery cannot reach that
// goroutine: a provider or ledger that panics fails the request instead of
// the process.
func (a *attempts) goStream(m agent.Model, fill func(out *agent.AssistantStream)) *agent.AssistantStream {
	out := agent.NewAssistantStream()
	go func() {
		defer out.End(agent.Message{})
		defer func() {
			if p := recover(); p != nil {
				a.log.Error("the attempt loop panicked", "panic", p)
				out.Push(context.Background(), failedEvent(m, fmt.Sprintf("internal error: %v", p), a.now()))
			}
		}()
		fill(out)
	}()
	return out
}

// failedEvent is the error event of a request that failed in steer itself.
func failedEvent(m agent.Model, text string, at time.Time) agent.AssistantEvent {
	msg := agent.Message{Role: agent.RoleAssistant, API: m.API, Provider: m.Provider, Model: m.ID,
		StopReason: agent.StopReasonError, ErrorMessage: text, Timestamp: at, Content: []agent.Content{}}
	return agent.AssistantEvent{Type: agent.EventError, Reason: agent.StopReasonError, Partial: msg}
}

// attemptRun is one request on its way through the attempt loop.
type attemptRun struct {
	ctx  context.Context
	llm  agent.LLMContext
	opts agent.StreamOptions
	out  *agent.AssistantStream
	tc   *timeoutChain // the guarded request's timeout chain; nil for a summary

	count    int               // attempts made
	first    string            // the first attempt's profile and model
	run      failover.Reason   // the merged reason of the failures so far
	failures []attempt         // the failures Decide moved on from, in order
	reasons  []failover.Reason // their reasons

	cooldownWaits int                  // cooldowns waited out (cooldownwait.go)
	timeoutWaits  int                  // those of them for a timeout's window
	hintEnds      map[string]time.Time // "profile model" → when its provider said to come back
	waitsEnded    bool                 // their auto_retry_end went out
}

// target is the model a request tries now, and what its attempts need.
type target struct {
	prov         Provider
	model        agent.Model
	profiles     int  // the run's candidate profiles, which size the attempt budget
	holdThinking bool // another model could still answer (see forward)
}

// holding is what forward holds back for an attempt at t of request q.
func (t target) holding(q *attemptRun) holding {
	return holding{thinking: t.holdThinking, planning: t.holdThinking && len(q.llm.Tools) > 0}
}

// attempt is how one attempt went.
type attempt struct {
	held      []agent.AssistantEvent // start (and thinking, see forward), held back
	final     agent.AssistantEvent   // the done or error event
	delivered bool                   // events reached out: the attempt cannot be retried
	thought   bool                   // thinking was held back: a reasoning-only answer
	planned   bool                   // the answer was a plan and nothing else, held back
}

func (a attempt) failed() bool { return a.final.Type != agent.EventDone }

// run tries the chain's models and their profiles in order
// until one answers or the decision is to surface the error, which then
// goes out — unless every candidate is cooling down and the request may
// wait for the soonest window (cooldownwait.go): then it waits and tries the
// chain again. A timeout that asks for a compaction (timeoutchain.go) goes
// out at once, for the guard to compact.
func (a *attempts) run(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions, out *agent.AssistantStream, tc *timeoutChain) {
	q := &attemptRun{ctx: ctx, llm: llm, opts: opts, out: out, tc: tc}
	if tc != nil {
		q.count = tc.made
		defer func() { tc.made = q.count }()
	}
	chain := a.catalog.modelChain(m)
	for {
		last, done := a.tryChain(q, chain)
		if done {
			return
		}
		if tc != nil && tc.asked.profile != "" {
			surface(last, q.out)
			return
		}
		if a.waitForCooldown(q, chain, &last) {
			continue
		}
		q.endCooldownWaits(last)
		surface(last, q.out)
		return
	}
}

// tryChain makes one pass over the chain. done: the request has ended (an
// answer, or a failure that went out); otherwise last is the failure to
// surface, which the caller may still wait past.
func (a *attempts) tryChain(q *attemptRun, chain []agent.Model) (last attempt, done bool) {
	for i, model := range chain {
		prov := a.catalog.providerOf(model)
		usable := q.ready(a.profiles.order(q.ctx, prov, model), model, a.now())
		t := target{prov: prov, model: model, profiles: len(usable), holdThinking: i+1 < len(chain)}
		var tried []string
		for {
			cand, ok := failover.Next(usable, tried, "")
			if !ok {
				if len(tried) == 0 {
					a.skipModel(q, model, prov, usable, chain[i+1:])
				}
				break // profiles exhausted: the next model
			}
			tried = append(tried, cand.ID)
			f, done := a.onProfile(q, t, cand.ID)
			if done {
				return attempt{}, true
			}
			q.noteHint(cand.ID, model, f.final.Partial.Error, a.now())
			verdict := failover.Decide(failover.Facts{
				Stage: f.stage, Failed: true, Reason: f.reason, RunReason: q.run,
				ProfilesLeft: failover.Left(usable, tried, ""), ModelsLeft: len(chain) - i - 1,
				Profiles: len(usable), Attempts: q.count,
				PromptHeavy: q.tc.compactsFor(), TimeoutCompactions: a.timeoutCompactions(),
			}, a.failover)
			f.info.Decision = verdict.Decision.String()
			annotate(q.ctx, q.out, AnnotationAttemptEnd, f.info)
			f.endRetries(q)
			q.run = failover.MergeReason(q.run, f.reason)
			q.failures, q.reasons = append(q.failures, f.attempt), append(q.reasons, f.reason)
			switch verdict.Decision {
			case failover.DecisionRotateProfile:
				if next, ok := failover.Next(usable, tried, ""); ok {
					annotate(q.ctx, q.out, AnnotationFailover, AttemptInfo{Reason: f.info.Reason, Decision: f.info.Decision, From: cand.ID, To: next.ID})
					continue
				}
			case failover.DecisionFallbackModel:
				if i+1 < len(chain) {
					annotate(q.ctx, q.out, AnnotationFailover, AttemptInfo{Reason: f.info.Reason, Decision: f.info.Decision, From: model.Ref(), To: chain[i+1].Ref()})
				}
			default:
				if verdict.Recovery == failover.RecoveryCompactTimeout {
					q.tc.asked = exemption{profile: cand.ID, model: model.ID}
				}
				return f.attempt, false
			}
			break
		}
	}
	return q.failures[failover.MostCredible(q.reasons)], false
}

// skipModel records a model none of whose profiles may be used now, and
// announces the fallback to the next model, if any.
func (a *attempts) skipModel(q *attemptRun, model agent.Model, prov Provider, usable []failover.Candidate, rest []agent.Model) {
	q.failures = append(q.failures, a.noProfileLeft(model, prov, usable))
	q.reasons = append(q.reasons, failover.ReasonRateLimit)
	if len(rest) > 0 {
		annotate(q.ctx, q.out, AnnotationFailover, AttemptInfo{Reason: failover.ReasonRateLimit.String(),
			Decision: failover.DecisionFallbackModel.String(), From: model.Ref(), To: rest[0].Ref()})
	}
}

// holding is what forward holds back before it counts as delivered.
type holding struct {
	// thinking: another model could still answer, so an answer that only
	// reasons must not have been shown (SPEC §5.4).
	thinking bool
	// planning: the same, and the request offered tools: the start of an
	// answer that reads like a plan waits (planning.go).
	planning bool
}

// forward streams src to out, holding the start event back until something
// follows it (a failure before any content is then retried without a trace)
// and the final event for the caller to push. Thinking and the opening of
// a plan are held back too, as hold says, until text or a tool call follows.
func forward(ctx context.Context, src *agent.AssistantStream, out *agent.AssistantStream, hold holding) attempt {
	var a attempt
	var text strings.Builder // held text: the answer so far while it reads like a plan
	for ev := range src.Events() {
		if !a.delivered {
			switch {
			case ev.Type == agent.EventStart:
				a.held = append(a.held, ev)
				continue
			case ev.Type == agent.EventError || ev.Type == agent.EventDone:
				a.final = ev // an error, or an answer with nothing in it: both may be retried
				continue
			case hold.thinking && isThinking(ev.Type):
				a.held, a.thought = append(a.held, ev), true
				continue
			case hold.planning && isText(ev.Type):
				text.WriteString(ev.Delta)
				if readPlanning(text.String()) != planningNot {
					a.held = append(a.held, ev)
					continue
				}
			}
			a.release(ctx, out)
		}
		if ev.Type == agent.EventDone || ev.Type == agent.EventError {
			a.final = ev // pushed by the caller, after its attempt_end
			continue
		}
		out.Push(ctx, ev)
	}
	if a.final.Type == "" { // a stream that broke its contract
		a.final = agent.AssistantEvent{Type: agent.EventError, Reason: agent.StopReasonError,
			Partial: agent.Message{Role: agent.RoleAssistant, StopReason: agent.StopReasonError, ErrorMessage: "the provider's stream ended without a result"}}
	}
	if !a.delivered && text.Len() > 0 && !a.failed() {
		if a.planned = isPlan(text.String()) && len(a.final.Partial.ToolCalls()) == 0; !a.planned {
			a.release(ctx, out) // a short answer: it goes out whole
		}
	}
	return a
}

// release pushes what was held back: the attempt is delivered.
func (a *attempt) release(ctx context.Context, out *agent.AssistantStream) {
	a.delivered = true
	for _, h := range a.held {
		out.Push(ctx, h)
	}
}

func isText(t agent.AssistantEventType) bool {
	return t == agent.EventTextStart || t == agent.EventTextDelta || t == agent.EventTextEnd
}

func isThinking(t agent.AssistantEventType) bool {
	return t == agent.EventThinkingStart || t == agent.EventThinkingDelta || t == agent.EventThinkingEnd
}

// surface sends a failed (or empty) attempt's end out as the request's
// result, after what was held back of it. The consumer waits for it, so it
// goes out even when ctx is done.
func surface(a attempt, out *agent.AssistantStream) {
	if !a.delivered {
		for _, h := range a.held {
			out.Push(context.Background(), h)
		}
	}
	out.Push(context.Background(), a.final)
}

// noProfileLeft is the failure of a model none of whose profiles may be
// used now: each is cooling down or disabled. Until when, and how to clear
// it, the cooldown wait adds (lockedOutText) when it does not wait.
func (a *attempts) noProfileLeft(m agent.Model, prov Provider, usable []failover.Candidate) attempt {
	text := fmt.Sprintf("every auth profile of %s is unavailable", prov.Name)
	if len(usable) > 0 {
		st := usable[0].State.Status(a.now())
		if st.State == failover.StateAvailable && !usable[0].Until.IsZero() {
			st = usable[0].State.Status(usable[0].Until.Add(-time.Millisecond)) // it ended since the ordering
		}
		text = fmt.Sprintf("every auth profile of %s is in %s (%s)", prov.Name, st.State, st.Reason)
	}
	return attempt{final: failedEvent(m, text, a.now())}
}
