package runner

import (
	"context"
	"errors"
	"fmt"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/humanize"
	"github.com/steer-tui/steer/contextguard"
	"github.com/steer-tui/steer/contextguard/engines"
)

// Compactions as events, so that every front end hears of them (in pi's
// shapes):
//
//	compaction_start {reason}
//	compaction_end {reason, result, aborted, willRetry, errorMessage?,
//	        tokensBefore, tokensAfter}
//	    a compaction in a request (reason threshold, overflow, timeout) goes
//	    out with the request's events (compactRequest); a manual one
//	    (/compact, rpc compact) on the session's events (compactNow).
//	compaction (notice: NoticeCompaction, Data the CompactionEnd)
//	    the outcome of a background compaction, which belongs to no request
//	    (compact_background.go); one adopted by the next run goes out as
//	    that run's compaction_start and compaction_end instead.
const (
	AnnotationCompactionStart = "compaction_start"
	AnnotationCompactionEnd   = "compaction_end"
)

// CompactionStart opens a compaction (compaction_start {reason}).
type CompactionStart struct {
	Reason string `json:"reason"`
}

// CompactionEnd closes it (compaction_end {reason, result, aborted,
// willRetry, errorMessage?}, with steer's tokensBefore/tokensAfter). Result
// is null when nothing was compacted.
type CompactionEnd struct {
	Reason       string            `json:"reason"`
	Result       *CompactionResult `json:"result"`
	Aborted      bool              `json:"aborted"`
	WillRetry    bool              `json:"willRetry"`
	ErrorMessage string            `json:"errorMessage,omitempty"`
	TokensBefore int               `json:"tokensBefore"`
	TokensAfter  int               `json:"tokensAfter"`
}

// CompactionResult is what a compaction produced.
type CompactionResult struct {
	Summary      string `json:"summary"`
	TokensBefore int    `json:"tokensBefore"`
	TokensAfter  int    `json:"tokensAfter"`
}

// compactBuiltin is the legacy engine's compaction: the older part of the
// session summarised by the session's model (with the fallback chain), the
// recent tail kept verbatim. A manual compaction is forced: it summarises a
// session that fits in the tail too, keeping only its last turn
// (contextguard.ForcedCut). It writes nothing.
func (k *contextKeeper) compactBuiltin(ctx context.Context, req engines.CompactRequest) (engines.CompactResult, error) {
	m := k.session.state().Model
	res, err := contextguard.Compact(ctx, req.Messages, contextguard.CompactOptions{
		Summarize: k.summarizer(m), Window: k.run.budget(m, agent.StreamOptions{}).Window,
		SummaryWindow: k.summaryWindow(m), Instructions: req.Instructions, Now: k.now, Estimator: k.estimator,
		Force: req.Reason == engines.CompactManual,
	})
	if err != nil {
		if reason, ok := nothingToCompact(err); ok {
			return engines.CompactResult{Reason: reason}, nil
		}
		return engines.CompactResult{}, err
	}
	return engines.CompactResult{Compacted: true, Messages: res.Messages, Summary: res.Summary,
		TokensBefore: res.TokensBefore, TokensAfter: res.TokensAfter}, nil
}

// nothingToCompact words the compactions that did not happen because there
// was nothing to summarise: they are answers, not failures.
func nothingToCompact(err error) (string, bool) {
	var ce *contextguard.CompactError
	if !errors.As(err, &ce) {
		return "", false
	}
	switch ce.Failure {
	case contextguard.FailureNothingToCompact:
		return "nothing to compact: the session is all recent conversation, which stays verbatim", true
	case contextguard.FailureEmptySession:
		return "nothing to compact: the session is empty", true
	case contextguard.FailureOnlySummary:
		return "nothing to compact: the session is only its summary already", true
	}
	return "", false
}

// summarizer asks m for the summary through the attempt loop: its profiles,
// then the fallback chain, as a run would (SPEC §6.3).
func (k *contextKeeper) summarizer(m agent.Model) contextguard.Summarizer {
	return contextguard.StreamSummarizer(k.path.summaries, m, agent.StreamOptions{Thinking: agent.ThinkingOff})
}

// summaryWindow is the smallest known window of the models that may write
// the summary: m and its fallbacks, and the limit an overflow error stated
// in this run.
func (k *contextKeeper) summaryWindow(m agent.Model) int {
	w := k.run.budget(m, agent.StreamOptions{}).Window
	for _, c := range k.path.modelChain(m) {
		if c.ContextWindow > 0 && (w == 0 || c.ContextWindow < w) {
			w = c.ContextWindow
		}
	}
	return w
}

// compact asks the engine to compact msgs for reason, under the compaction
// safety timeout (SPEC §6.3): a timeout, a panic or an error is a
// compaction that did not happen, with the reason in errText, and the
// caller goes on with what it had.
func (k *contextKeeper) compact(ctx context.Context, m agent.Model, msgs []agent.Message, reason engines.CompactReason, instructions string) (res engines.CompactResult, compacted bool, errText string) {
	k.session.preCompact(ctx, reason == engines.CompactManual, instructions)
	defer func() {
		if compacted {
			k.session.compacted(ctx)
		}
	}()
	out := engines.CompactSafely(ctx, k.engines.engine, engines.CompactRequest{
		Session: k.engines.sessionNow(), Model: engines.ModelOf(m), Reason: reason, Instructions: instructions,
		Messages: msgs, TokenBudget: k.run.budget(m, agent.StreamOptions{}).PromptTokens(),
	}, engines.CompactSafetyTimeout)
	if out.TimedOut {
		k.log.Warn("the compaction timed out; going on without it", "reason", reason, "error", out.Reason)
	}
	if out.OK { // the todo list outlives the calls summarised away (todo.go)
		out.Result.Messages, out.Result.Summary = withTodo(out.Result.Messages, out.Result.Summary, TodoOf(msgs), k.now())
	}
	return out.Result, out.OK, out.Reason
}

// compactRequest compacts the session in the middle of a request (budget,
// overflow, timeout): compaction_start and compaction_end go out with the
// request's events, and the compacted transcript replaces the run's
// context, and so the stored session. It reports whether it compacted.
//
// A budget compaction for an engine that owns compaction does not happen
// here but after the run, in the background (deferBudgetCompaction): it
// reports false, and the request goes on with what it had.
func (k *contextKeeper) compactRequest(ctx context.Context, q *guarded, reason engines.CompactReason, cause string) bool {
	if reason == engines.CompactThreshold && k.deferBudgetCompaction(ctx) {
		return false
	}
	annotate(ctx, q.out, AnnotationCompactionStart, CompactionStart{Reason: string(reason)})
	before := k.estimator.Messages(q.llm.Messages)
	summaryCtx := withCooldownSink(ctx, func(info CooldownInfo) { annotate(ctx, q.out, AnnotationCooldown, info) })
	res, ok, errText := k.compact(summaryCtx, q.m, q.llm.Messages, reason, "")
	end := CompactionEnd{Reason: string(reason), Aborted: ctx.Err() != nil, WillRetry: ok, TokensBefore: before, TokensAfter: before}
	if ok {
		end.Result = &CompactionResult{Summary: res.Summary, TokensBefore: before, TokensAfter: k.estimator.Messages(res.Messages)}
		end.TokensAfter = end.Result.TokensAfter
		q.llm.Messages, q.compacted = res.Messages, true
		q.out.Push(ctx, agent.ReplaceContext(res.Messages))
	} else {
		end.ErrorMessage = errText
		if cause != "" {
			end.ErrorMessage = fmt.Sprintf("%s (after: %s)", errText, cause)
		}
	}
	k.engines.announceQuarantines(ctx, q.out)
	annotate(ctx, q.out, AnnotationCompactionEnd, end)
	return ok
}

// Compact compacts the session now (/compact [instructions], rpc compact):
// the older part is summarised, the recent tail kept. It fails with
// agent.ErrBusy while a run is active (abort or wait for it first). The
// compaction runs as a run of its own in the session's records, and inputs
// sent meanwhile wait for it; cancelling ctx (Esc, rpc abort) abandons it
// and leaves the session unchanged, even when the summary has come
// (engines.CompactSafely counts a compaction whose ctx ended as not done).
func (r *Runtime) Compact(ctx context.Context, instructions string) (CompactionEnd, error) {
	return r.keeper.compactNow(ctx, instructions)
}

// compactNow is Runtime.Compact.
func (k *contextKeeper) compactNow(ctx context.Context, instructions string) (CompactionEnd, error) {
	release := k.session.holdInputs()
	defer release()
	st := k.session.state()
	if st.Running {
		return CompactionEnd{}, agent.ErrBusy
	}
	reason := engines.CompactManual
	if err := k.session.announce(agent.Annotation{Kind: AnnotationCompactionStart, Data: CompactionStart{Reason: string(reason)}}); err != nil {
		return CompactionEnd{}, err
	}
	// The summary is a model request: it waits its turn in the session's
	// and the global lane like a run (trigger manual: foreground), and the
	// lane's timeout ends it.
	task, err := k.path.manualLane(ctx)
	if err != nil {
		end := CompactionEnd{Reason: string(reason), Aborted: ctx.Err() != nil, ErrorMessage: err.Error()}
		_ = k.session.announce(agent.Annotation{Kind: AnnotationCompactionEnd, Data: end})
		return end, err
	}
	defer task.Leave()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(task.Context(), cancel)
	defer stop()
	before := k.estimator.Messages(st.Messages)
	end := CompactionEnd{Reason: string(reason), TokensBefore: before, TokensAfter: before}
	summaryCtx := withCooldownSink(ctx, func(info CooldownInfo) {
		_ = k.session.announce(agent.Annotation{Kind: AnnotationCooldown, Data: info})
	})
	res, ok, errText := k.compact(summaryCtx, st.Model, st.Messages, reason, instructions)
	end.Aborted = ctx.Err() != nil
	if ok {
		end.Result = &CompactionResult{Summary: res.Summary, TokensBefore: before, TokensAfter: k.estimator.Messages(res.Messages)}
		end.TokensAfter = end.Result.TokensAfter
		err = k.session.replaceTranscript(res.Messages)
	} else {
		end.ErrorMessage = errText
		err = errors.New(errText)
		if end.Aborted {
			err = ctx.Err()
		}
	}
	k.engines.noticeQuarantines()
	if aerr := k.session.announce(agent.Annotation{Kind: AnnotationCompactionEnd, Data: end}); err == nil {
		err = aerr
	}
	return end, err
}

// Summary says in one line how the compaction went, for the transcript's
// notice and steer run's stderr.
func (e CompactionEnd) Summary() string {
	switch {
	case e.Result != nil && e.Reason == string(engines.CompactManual):
		// The user asked for it: no need to say why it happened.
		return fmt.Sprintf("compacted: %s → %s tokens", humanize.Tokens(e.Result.TokensBefore), humanize.Tokens(e.Result.TokensAfter))
	case e.Result != nil:
		return fmt.Sprintf("compacted (%s): %s → %s tokens", e.Reason, humanize.Tokens(e.Result.TokensBefore), humanize.Tokens(e.Result.TokensAfter))
	case e.Aborted:
		return fmt.Sprintf("compaction (%s) cancelled", e.Reason)
	}
	return fmt.Sprintf("compaction (%s) did not happen: %s", e.Reason, e.ErrorMessage)
}
