package runner

import (
	"context"
	"fmt"
	"sync"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/contextguard"
	"github.com/steer-tui/steer/contextguard/engines"
	"github.com/steer-tui/steer/failover"
)

// The context guard on the request path (SPEC §6): every request the
// kernel makes is measured, compacted first when it cannot fit (budget),
// assembled by the context engine, trimmed by the pre-request guard (the
// runner's transformContext: the stored transcript is not changed) and
// only then tried on the profiles and models of the attempt loop. A
// provider's overflow error, or a timeout on a full window, starts the
// recovery chain of SPEC §6.3 and the request is tried again.

// Compaction budgets per run (SPEC §6.3). (seed)
const (
	maxTimeoutCompactions  = 2
	maxOverflowCompactions = 3
	// timeoutCompactionShare: a timeout compacts only when the prompt
	// filled more than this share of the window.
	timeoutCompactionShare = 0.65
)

// runGuard is what the guard remembers for the length of a run.
type runGuard struct {
	mu sync.Mutex
	// window replaces the model's context window after a provider's
	// overflow error stated its limit.
	window      int
	compactions map[engines.CompactReason]int
	// stuckAt is the size of the last context a budget compaction could
	// not shrink: the next ones wait until the context has grown.
	stuckAt int
}

// budgetRegrowth is how much a context must grow past stuckAt before a
// budget compaction is tried again.
const budgetRegrowth = 1.25

// wantsBudgetCompaction says whether a context of tokens is worth a budget
// compaction, and stuck records one that could not shrink it.
func (g *runGuard) wantsBudgetCompaction(tokens int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stuckAt == 0 || float64(tokens) > budgetRegrowth*float64(g.stuckAt)
}

func (g *runGuard) stuck(tokens int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.stuckAt = tokens
}

func (g *runGuard) reset() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.window, g.compactions, g.stuckAt = 0, nil, 0
}

func (g *runGuard) budget(m agent.Model, opts agent.StreamOptions) contextguard.Budget {
	b := contextguard.BudgetFor(m, opts)
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.window > 0 && (b.Window == 0 || g.window < b.Window) {
		b.Window = g.window
	}
	return b
}

func (g *runGuard) setWindow(tokens int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.window = tokens
}

// take counts one compaction for reason if the run's budget allows it.
func (g *runGuard) take(reason engines.CompactReason, limit int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.compactions[reason] >= limit {
		return false
	}
	if g.compactions == nil {
		g.compactions = map[engines.CompactReason]int{}
	}
	g.compactions[reason]++
	return true
}

// request is one request's way through the guard and the recovery chain.
type guarded struct {
	m    agent.Model
	llm  agent.LLMContext // as the run stands: compaction replaces it
	opts agent.StreamOptions
	out  *agent.AssistantStream
	// compacted: this request compacted the session, so an overflow is
	// retried once without compacting again.
	compacted, retried, truncated bool
}

// guardedAttempts runs one request through the guard and the attempt loop,
// recovering from an overflow or a timeout on a full window.
func (r *Runtime) guardedAttempts(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions, out *agent.AssistantStream) {
	q := &guarded{m: m, llm: llm, opts: opts, out: out}
	for {
		b := r.runGuard.budget(m, opts)
		p := r.guard.Assess(q.llm, b)
		if p.Route.Compacts() && !q.compacted && r.runGuard.wantsBudgetCompaction(p.Tokens) && !r.guardSuffices(q.llm, b) {
			if !r.compactRequest(ctx, q, engines.CompactThreshold, "") {
				r.runGuard.stuck(p.Tokens)
			}
		}
		send := r.assemble(ctx, q, b)
		send, _ = r.guard.Apply(send, b)
		r.announceQuarantines(ctx, out)
		final, delivered := r.tapAttempts(ctx, m, send, opts, out)
		if delivered || final.Type == agent.EventDone || ctx.Err() != nil || !r.recover(ctx, q, final, p) {
			out.Push(context.Background(), final)
			return
		}
	}
}

// guardSuffices says whether cutting oversized tool results alone makes
// llm fit: then the request is not worth a compaction, which would cost a
// summary and lose more of the session than the cut does.
func (r *Runtime) guardSuffices(llm agent.LLMContext, b contextguard.Budget) bool {
	_, rep := r.guard.Apply(llm, b)
	return rep.Fits && rep.Compacted == 0
}

// recover decides what to do about a failed request: true when the session
// was changed (or a retry is due) and the request goes again.
func (r *Runtime) recover(ctx context.Context, q *guarded, final agent.AssistantEvent, p contextguard.Pressure) bool {
	switch reasonOf(final) {
	case failover.ReasonContextOverflow:
		if limit, ok := contextguard.OverflowLimit(final.Partial.ErrorMessage); ok {
			r.runGuard.setWindow(limit)
		}
		if q.compacted && !q.retried {
			q.retried = true // compacted already in this request: once more as it is
			return true
		}
		if !q.compacted && r.runGuard.take(engines.CompactOverflow, maxOverflowCompactions) &&
			r.compactRequest(ctx, q, engines.CompactOverflow, final.Partial.ErrorMessage) {
			return true
		}
		if !q.truncated && ctx.Err() == nil {
			q.truncated = true
			return r.truncateSession(ctx, q)
		}
	case failover.ReasonTimeout:
		window := r.runGuard.budget(q.m, q.opts).Window
		if window > 0 && float64(p.Tokens) > timeoutCompactionShare*float64(window) && !q.compacted &&
			r.runGuard.take(engines.CompactTimeout, maxTimeoutCompactions) {
			return r.compactRequest(ctx, q, engines.CompactTimeout, final.Partial.ErrorMessage)
		}
	}
	return false
}

// assemble asks the context engine what this request sends.
func (r *Runtime) assemble(ctx context.Context, q *guarded, b contextguard.Budget) agent.LLMContext {
	res, err := r.engine.Assemble(ctx, engines.AssembleRequest{
		Session: r.engineSession(), Model: engines.ModelOf(q.m), SystemPrompt: q.llm.SystemPrompt,
		Messages: q.llm.Messages, TokenBudget: b.PromptTokens(),
	})
	send := q.llm
	if err != nil {
		r.log.Warn("the context engine could not assemble the request; sending the transcript", "error", err)
		return send
	}
	send.Messages = res.Messages
	if res.SystemPromptAddition != "" {
		send.SystemPrompt += "\n\n" + res.SystemPromptAddition
	}
	return send
}

// truncateSession cuts the session's oversized tool results for good
// (the last step of the overflow chain); false when there are none.
func (r *Runtime) truncateSession(ctx context.Context, q *guarded) bool {
	limit := contextguard.ToolResultLimit(r.runGuard.budget(q.m, q.opts).Window)
	msgs := q.llm.Messages
	var cut []agent.Message
	for i, m := range msgs {
		if m.Role != agent.RoleToolResult {
			continue
		}
		if t, changed := contextguard.TruncateToolResultMessage(m, limit); changed {
			if cut == nil {
				cut = append([]agent.Message(nil), msgs...)
			}
			cut[i] = t
		}
	}
	if cut == nil {
		return false
	}
	q.llm.Messages = cut
	q.out.Push(ctx, agent.ReplaceContext(cut))
	return true
}

// tapAttempts runs the attempt loop into out, keeping its final event back:
// the caller pushes it, or retries the request when nothing but
// annotations went out (delivered is false).
func (r *Runtime) tapAttempts(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions, out *agent.AssistantStream) (final agent.AssistantEvent, delivered bool) {
	tap := agent.NewAssistantStream()
	go func() {
		defer tap.End(agent.Message{})
		// A provider or ledger that panics fails the request, not the process.
		defer func() {
			if p := recover(); p != nil {
				r.log.Error("the attempt loop panicked", "panic", p)
				tap.Push(context.Background(), failedEvent(m, fmt.Sprintf("internal error: %v", p), r.opts.Now()))
			}
		}()
		r.runAttempts(ctx, m, llm, opts, tap)
	}()
	var held []agent.AssistantEvent // a start: nothing yet, as long as nothing follows it
	for ev := range tap.Events() {
		switch ev.Type {
		case agent.EventDone, agent.EventError:
			final = ev
			continue
		case agent.EventStart:
			if !delivered {
				held = append(held, ev)
				continue
			}
		case agent.EventAnnotation:
		default:
			if !delivered {
				delivered = true
				for _, h := range held {
					out.Push(ctx, h)
				}
			}
		}
		out.Push(ctx, ev)
	}
	if final.Type == "" {
		final = failedEvent(m, "the request ended without a result", r.opts.Now())
		if ctx.Err() != nil {
			final.Type, final.Reason = agent.EventError, agent.StopReasonAborted
			final.Partial.StopReason = agent.StopReasonAborted
		}
	}
	return final, delivered
}

// reasonOf classifies a failed request's final event.
func reasonOf(ev agent.AssistantEvent) failover.Reason {
	if ev.Partial.Error != nil {
		return failover.ClassifyError(ev.Partial.Error, nil)
	}
	return failover.Classify(0, ev.Partial.ErrorMessage)
}
