package runner

import (
	"context"
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
// recovery chain of SPEC §6.3 and the request is tried again. This is the
// contextKeeper's request path: the lanes and the attempt loop it reaches
// through requestPath.

// runGuard is what the guard remembers for the length of a run.
type runGuard struct {
	mu sync.Mutex
	// window replaces the model's context window after a provider's
	// overflow error stated its limit.
	window      int
	compactions map[engines.CompactReason]int
	// fence is how many messages the context held at the run's last
	// request: tool results after it are new (the mid-turn precheck).
	fence int
	// stuckAt is the size of the last context a budget compaction could
	// not shrink: the next ones wait until the context has grown.
	stuckAt int
	// giveUp is why the overflow chain gave up on the run's last request
	// (contextguard.OverflowState.GiveUpReason), "" when it did not.
	giveUp string
}

// gaveUp is why the recovery chain gave the run up ("context_overflow",
// "compaction_failure"), "" when it did not: the run's end names it.
func (g *runGuard) gaveUp() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.giveUp
}

func (g *runGuard) giveUpWith(reason string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.giveUp = reason
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
	g.window, g.compactions, g.stuckAt, g.fence, g.giveUp = 0, nil, 0, 0, ""
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

// count is how often the run compacted for reason.
func (g *runGuard) count(reason engines.CompactReason) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.compactions[reason]
}

// counted records a compaction for reason.
func (g *runGuard) counted(reason engines.CompactReason) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.compactions == nil {
		g.compactions = map[engines.CompactReason]int{}
	}
	g.compactions[reason]++
}

// moveFence returns the fence of the run's last request and moves it to n.
func (g *runGuard) moveFence(n int) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	prev := g.fence
	g.fence = n
	return prev
}

// guarded is one request's way through the guard and the recovery chain.
type guarded struct {
	m    agent.Model
	llm  agent.LLMContext // as the run stands: compaction replaces it
	opts agent.StreamOptions
	out  *agent.AssistantStream
	// compacted: this request compacted the session, so an overflow is
	// retried once without compacting again. recovered: the overflow
	// chain's first step was taken (contextguard.OverflowState.Recovered).
	compacted, recovered, truncated, compactionFailed bool
	// timeout is the timeout chain of this request (timeoutchain.go).
	timeout timeoutChain
	// fence is how many messages the run's previous request held (0 for
	// its first): the tool results after it are new.
	fence int
}

// guardedAttempts runs one request through the guard and the attempt loop,
// recovering from an overflow or a timeout on a full window.
func (k *contextKeeper) guardedAttempts(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions, out *agent.AssistantStream) {
	ctx, err := k.path.enterLanes(ctx, out)
	if err != nil {
		out.Push(context.Background(), abortedEvent(ctx, m, k.now()))
		return
	}
	q := &guarded{m: m, llm: llm, opts: opts, out: out, fence: k.run.moveFence(len(llm.Messages))}
	k.adoptBackgroundCompaction(ctx, q)
	first := q.fence == 0
	for {
		b := k.run.budget(m, opts)
		p := k.guard.Assess(q.llm, b)
		if k.wantsBudgetCompaction(q, b, p, first) {
			if !k.compactRequest(ctx, q, engines.CompactThreshold, "") {
				k.run.stuck(p.Tokens)
			}
		}
		send := k.assemble(ctx, q, b)
		send.Messages = contextguard.StripStaleThinkingSignatures(send.Messages)
		send, _ = k.guard.Apply(send, b)
		k.engines.announceQuarantines(ctx, out)
		k.run.moveFence(len(q.llm.Messages)) // as sent: a compaction may have shrunk it
		tokens := p.Tokens
		if q.compacted {
			tokens = k.guard.Assess(q.llm, b).Tokens
		}
		if !k.path.spendAllows(ctx, m, tokens, out) {
			return
		}
		q.timeout.heavy = contextguard.CompactAfterTimeout(tokens, b.Window, k.run.count(engines.CompactTimeout))
		final, delivered := k.tapAttempts(q.timeout.context(ctx), m, send, opts, out, &q.timeout)
		k.path.spendCharge(final)
		if delivered || final.Type == agent.EventDone || ctx.Err() != nil || !k.recover(ctx, q, final) {
			out.Push(context.Background(), final)
			return
		}
	}
}

// guardSuffices says whether cutting oversized tool results alone makes
// llm fit: then the request is not worth a compaction, which would cost a
// summary and lose more of the session than the cut does.
func (k *contextKeeper) guardSuffices(llm agent.LLMContext, b contextguard.Budget) bool {
	_, rep := k.guard.Apply(llm, b)
	return rep.Fits && rep.Compacted == 0
}

// wantsBudgetCompaction is the budget trigger: before the run's first
// request, the pre-flight route compacts; before a later one, the mid-turn
// precheck signals that the tool results that arrived since the last
// request push it over. Either way only when cutting tool results alone
// would not make it fit, and not again until a context that could not be
// shrunk has grown.
func (k *contextKeeper) wantsBudgetCompaction(q *guarded, b contextguard.Budget, p contextguard.Pressure, first bool) bool {
	if q.compacted || !k.run.wantsBudgetCompaction(p.Tokens) {
		return false
	}
	if first {
		if !p.Route.Compacts() {
			return false
		}
	} else if sig := k.guard.Precheck(q.llm, q.fence, b); sig == nil {
		return false
	} else {
		k.log.Info("the mid-turn precheck asks for a compaction", "signal", sig.Error())
	}
	return !k.guardSuffices(q.llm, b)
}

// recover decides what to do about a failed request: true when the session
// was changed (or a retry is due) and the request goes again.
func (k *contextKeeper) recover(ctx context.Context, q *guarded, final agent.AssistantEvent) bool {
	switch reasonFor(q.m, final) {
	case failover.ReasonContextOverflow:
		if limit, ok := contextguard.OverflowLimit(final.Partial.ErrorMessage); ok {
			k.run.setWindow(limit)
		}
		for {
			limit := contextguard.ToolResultLimit(k.run.budget(q.m, q.opts).Window)
			state := contextguard.OverflowState{CompactedInAttempt: q.compacted, Recovered: q.recovered,
				Compactions: k.run.count(engines.CompactOverflow), CompactionFailed: q.compactionFailed,
				OversizedToolResults: contextguard.ReducibleToolResultChars(q.llm.Messages, limit) > 0,
				TruncatedToolResults: q.truncated}
			switch contextguard.NextOverflowStep(state) {
			case contextguard.StepRetry:
				q.recovered = true
				return true
			case contextguard.StepCompact:
				k.run.counted(engines.CompactOverflow)
				if k.compactRequest(ctx, q, engines.CompactOverflow, final.Partial.ErrorMessage) {
					q.recovered = true
					return true
				}
				q.compactionFailed = true
				if ctx.Err() != nil {
					return false
				}
			case contextguard.StepTruncateToolResults:
				q.truncated = true
				return k.truncateSession(ctx, q, limit)
			default:
				k.run.giveUpWith(state.GiveUpReason())
				return false
			}
		}
	case failover.ReasonTimeout:
		return k.path.compactForTimeout(ctx, q, final)
	}
	return false
}

// assemble asks the context engine what this request sends.
func (k *contextKeeper) assemble(ctx context.Context, q *guarded, b contextguard.Budget) agent.LLMContext {
	res, err := k.engines.engine.Assemble(ctx, engines.AssembleRequest{
		Session: k.engines.sessionNow(), Model: engines.ModelOf(q.m), SystemPrompt: q.llm.SystemPrompt,
		Messages: q.llm.Messages, TokenBudget: b.PromptTokens(),
	})
	send := q.llm
	if err != nil {
		k.log.Warn("the context engine could not assemble the request; sending the transcript", "error", err)
		return send
	}
	send.Messages = res.Messages
	if res.SystemPromptAddition != "" {
		send.SystemPrompt += "\n\n" + res.SystemPromptAddition
	}
	return send
}

// truncateSession cuts the session's oversized tool results to limit for
// good (the overflow chain's last step); false when there are none.
func (k *contextKeeper) truncateSession(ctx context.Context, q *guarded, limit int) bool {
	cut, n := contextguard.TruncateToolResults(q.llm.Messages, limit)
	if n == 0 {
		return false
	}
	q.llm.Messages = cut
	q.out.Push(ctx, agent.ReplaceContext(cut))
	return true
}

// tapAttempts runs the attempt loop into out, keeping its final event back:
// the caller pushes it, or retries the request when nothing but
// annotations went out (delivered is false).
func (k *contextKeeper) tapAttempts(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions, out *agent.AssistantStream, tc *timeoutChain) (final agent.AssistantEvent, delivered bool) {
	tap := k.path.attempts(ctx, m, llm, opts, tc)
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
		final = failedEvent(m, "the request ended without a result", k.now())
		if ctx.Err() != nil {
			final.Type, final.Reason = agent.EventError, agent.StopReasonAborted
			final.Partial.StopReason = agent.StopReasonAborted
		}
	}
	return final, delivered
}

// reasonFor classifies the final event of a failed request to m, with m's
// provider's refinements (failover.ClassifyFor), as its attempts were.
func reasonFor(m agent.Model, ev agent.AssistantEvent) failover.Reason {
	if ev.Partial.Error != nil {
		return failover.ClassifyFor(m, ev.Partial.Error, nil)
	}
	return reasonOf(ev)
}

// reasonOf classifies a failed request's final event.
func reasonOf(ev agent.AssistantEvent) failover.Reason {
	if ev.Partial.Error != nil {
		return failover.ClassifyError(ev.Partial.Error, nil)
	}
	return failover.Classify(0, ev.Partial.ErrorMessage)
}
