package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/failover"
)

// The attempt loop (SPEC §7.3, §5): every request the kernel makes goes
// through attempts. An attempt is one auth profile of one model; a failure
// that comes before anything was streamed is classified, written to the
// shared ledger and decided on — rotate to the next profile, fall back to the
// next model of the chain, or surface the error. What was already streamed
// cannot be taken back, so a failure after content ends the request as the
// provider ended it (and is still ledgered).

// attemptStream is the StreamFn the Agent calls for model m: it runs the
// attempts and streams the one that answers.
func (r *Runtime) attemptStream(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
	out := agent.NewAssistantStream()
	go func() {
		defer out.End(agent.Message{})
		// The loop's own recovery cannot reach this goroutine: a provider or
		// ledger that panics fails the request instead of the process.
		defer func() {
			if p := recover(); p != nil {
				r.log.Error("the attempt loop panicked", "panic", p)
				out.Push(context.Background(), failedEvent(m, fmt.Sprintf("internal error: %v", p), r.opts.Now()))
			}
		}()
		r.runAttempts(ctx, m, llm, opts, out)
	}()
	return out
}

// failedEvent is the error event of a request that failed in steer itself.
func failedEvent(m agent.Model, text string, at time.Time) agent.AssistantEvent {
	msg := agent.Message{Role: agent.RoleAssistant, API: m.API, Provider: m.Provider, Model: m.ID,
		StopReason: agent.StopReasonError, ErrorMessage: text, Timestamp: at, Content: []agent.Content{}}
	return agent.AssistantEvent{Type: agent.EventError, Reason: agent.StopReasonError, Partial: msg}
}

// attempt is how one attempt went.
type attempt struct {
	held      []agent.AssistantEvent // start (and thinking, see forward), held back
	final     agent.AssistantEvent   // the done or error event
	delivered bool                   // events reached out: the attempt cannot be retried
	thought   bool                   // thinking was held back: a reasoning-only answer
}

func (a attempt) failed() bool { return a.final.Type != agent.EventDone }

// runAttempts tries the chain's models and their profiles in order until one
// answers or the decision is to surface the error, which then goes out.
func (r *Runtime) runAttempts(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions, out *agent.AssistantStream) {
	chain := r.modelChain(m)
	var failures []attempt
	var reasons []failover.Reason
	run := failover.ReasonUnknown
	count := 0
	for i, model := range chain {
		prov := r.providerOf(model)
		usable := r.orderProfiles(ctx, prov, model)
		var tried []string
		for {
			cand, ok := failover.Next(usable, tried, "")
			if !ok {
				if len(tried) == 0 {
					failures = append(failures, r.noProfileLeft(model, prov, usable))
					reasons = append(reasons, failover.ReasonRateLimit)
					if i+1 < len(chain) {
						annotate(ctx, out, AnnotationFailover, AttemptInfo{Reason: failover.ReasonRateLimit.String(),
							Decision: failover.DecisionFallbackModel.String(), From: model.Ref(), To: chain[i+1].Ref()})
					}
				}
				break // profiles exhausted: the next model
			}
			tried = append(tried, cand.ID)
			count++
			o := opts
			o.Profile, o.APIKey = cand.ID, prov.key(cand.ID)
			if count > 1 {
				// A switch is a clean start: the thinking level goes back to
				// its initial value (SPEC §5.3). (seed)
				o.Thinking = r.opts.Thinking
			}
			info := AttemptInfo{Profile: cand.ID, Model: model.Ref(), Attempt: count}
			annotate(ctx, out, AnnotationAttemptStart, info)
			began := time.Now()
			var a attempt
			if src := prov.Stream(ctx, model, llm, o); src != nil {
				a = forward(ctx, src, out, i+1 < len(chain))
			} else {
				a.final = failedEvent(model, "the provider returned no stream", r.opts.Now())
			}
			info.DurationMs = time.Since(began).Milliseconds()
			empty := !a.failed() && !a.delivered // done with nothing, or only reasoning, before it (SPEC §5.4)
			if !a.failed() && !empty {
				annotate(ctx, out, AnnotationAttemptEnd, info)
				out.Push(context.Background(), a.final)
				r.recordSuccess(cand.ID)
				if count > 1 {
					r.agent.SetThinking(r.opts.Thinking)
				}
				return
			}
			stage, reason := failover.StagePrompt, failover.ReasonEmptyResponse
			switch {
			case empty:
				stage = failover.StageAssistant
			case a.final.Partial.Error != nil:
				reason = failover.ClassifyError(a.final.Partial.Error, nil)
			default:
				reason = failover.Classify(0, a.final.Partial.ErrorMessage)
			}
			info.Reason = reason.String()
			if ctx.Err() == nil {
				r.recordFailure(ctx, cand.ID, model, reason, a.final.Partial.Error)
			}
			if a.delivered || ctx.Err() != nil {
				annotate(ctx, out, AnnotationAttemptEnd, info)
				surface(a, out)
				return // partly out already, or aborted: nothing to retry
			}
			verdict := failover.Decide(failover.Facts{
				Stage: stage, Failed: true, Reason: reason, RunReason: run,
				ProfilesLeft: failover.Left(usable, tried, ""), ModelsLeft: len(chain) - i - 1,
				Profiles: len(usable), Attempts: count,
			}, r.opts.Failover)
			info.Decision = verdict.Decision.String()
			annotate(ctx, out, AnnotationAttemptEnd, info)
			run = failover.MergeReason(run, reason)
			failures, reasons = append(failures, a), append(reasons, reason)
			switch verdict.Decision {
			case failover.DecisionRotateProfile:
				if next, ok := failover.Next(usable, tried, ""); ok {
					annotate(ctx, out, AnnotationFailover, AttemptInfo{Reason: info.Reason, Decision: info.Decision, From: cand.ID, To: next.ID})
					continue
				}
			case failover.DecisionFallbackModel:
				if i+1 < len(chain) {
					annotate(ctx, out, AnnotationFailover, AttemptInfo{Reason: info.Reason, Decision: info.Decision, From: model.Ref(), To: chain[i+1].Ref()})
				}
			default:
				surface(a, out)
				return
			}
			break
		}
	}
	surface(failures[failover.MostCredible(reasons)], out)
}

// forward streams src to out, holding the start event back until something
// follows it (a failure before any content is then retried without a trace)
// and the final event for the caller to push. With holdThinking (another
// model could still answer) thinking is held back too, until text or a tool
// call follows: an answer that only reasons counts as a failure (SPEC §5.4)
// and must not have been shown.
func forward(ctx context.Context, src *agent.AssistantStream, out *agent.AssistantStream, holdThinking bool) attempt {
	var a attempt
	for ev := range src.Events() {
		if !a.delivered {
			switch {
			case ev.Type == agent.EventStart:
				a.held = append(a.held, ev)
				continue
			case ev.Type == agent.EventError || ev.Type == agent.EventDone:
				a.final = ev // an error, or an answer with nothing in it: both may be retried
				continue
			case holdThinking && isThinking(ev.Type):
				a.held, a.thought = append(a.held, ev), true
				continue
			}
			a.delivered = true
			for _, h := range a.held {
				out.Push(ctx, h)
			}
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
	return a
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
// used now: each is cooling down or disabled.
func (r *Runtime) noProfileLeft(m agent.Model, prov Provider, usable []failover.Candidate) attempt {
	text := fmt.Sprintf("every auth profile of %s is unavailable", prov.Name)
	if len(usable) > 0 {
		st := usable[0].State.Status(r.opts.Now())
		text = fmt.Sprintf("every auth profile of %s is in %s (%s) until %s", prov.Name, st.State, st.Reason,
			st.Until.Local().Format(time.TimeOnly))
	}
	return attempt{final: failedEvent(m, text, r.opts.Now())}
}

// The annotations of the attempt loop in the event stream (SPEC §12).
const (
	AnnotationAttemptStart = "attempt_start"
	AnnotationAttemptEnd   = "attempt_end"
	AnnotationFailover     = "failover"
)

// AttemptInfo is the Data of the attempt loop's annotations: one attempt,
// or for a failover the move from one profile or model to the next.
type AttemptInfo struct {
	Profile    string `json:"profile,omitempty"`
	Model      string `json:"model,omitempty"`
	Attempt    int    `json:"attempt,omitempty"`
	Reason     string `json:"reason,omitempty"`
	Decision   string `json:"decision,omitempty"`
	From       string `json:"from,omitempty"`
	To         string `json:"to,omitempty"`
	DurationMs int64  `json:"durationMs,omitempty"`
}

// Summary words a failover for people: what failed, and where the request
// goes next.
func (i AttemptInfo) Summary() string {
	switch i.Decision {
	case failover.DecisionRotateProfile.String():
		return fmt.Sprintf("%s on profile %s: trying profile %s", i.Reason, i.From, i.To)
	case failover.DecisionFallbackModel.String():
		return fmt.Sprintf("%s on model %s: falling back to %s", i.Reason, i.From, i.To)
	}
	return fmt.Sprintf("%s: %s %s → %s", i.Reason, i.Decision, i.From, i.To)
}

// annotate puts an annotation into the request's stream, in order with the
// response (see agent.Annotation).
func annotate(ctx context.Context, out *agent.AssistantStream, kind string, info AttemptInfo) {
	out.Push(ctx, agent.Annotate(agent.Annotation{Kind: kind, Data: info}))
}
