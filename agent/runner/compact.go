package runner

import (
	"context"
	"errors"
	"fmt"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/humanize"
	"github.com/steer-tui/steer/contextguard"
	"github.com/steer-tui/steer/contextguard/engines"
	"github.com/steer-tui/steer/lanes"
	"github.com/steer-tui/steer/persistence"
)

// The annotations of a compaction, in pi's shapes.
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
func (r *Runtime) compactBuiltin(ctx context.Context, req engines.CompactRequest) (engines.CompactResult, error) {
	m := r.agent.State().Model
	res, err := contextguard.Compact(ctx, req.Messages, contextguard.CompactOptions{
		Summarize: r.summarizer(m), Window: r.runGuard.budget(m, agent.StreamOptions{}).Window,
		SummaryWindow: r.summaryWindow(m), Instructions: req.Instructions, Now: r.opts.Now, Estimator: r.estimator,
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
func (r *Runtime) summarizer(m agent.Model) contextguard.Summarizer {
	return contextguard.StreamSummarizer(r.attemptsStream, m, agent.StreamOptions{Thinking: agent.ThinkingOff})
}

// summaryWindow is the smallest known window of the models that may write
// the summary: m and its fallbacks, and the limit an overflow error stated
// in this run.
func (r *Runtime) summaryWindow(m agent.Model) int {
	w := r.runGuard.budget(m, agent.StreamOptions{}).Window
	for _, c := range r.modelChain(m) {
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
func (r *Runtime) compact(ctx context.Context, m agent.Model, msgs []agent.Message, reason engines.CompactReason, instructions string) (res engines.CompactResult, compacted bool, errText string) {
	out := engines.CompactSafely(ctx, r.engine, engines.CompactRequest{
		Session: r.engineSession(), Model: engines.ModelOf(m), Reason: reason, Instructions: instructions,
		Messages: msgs, TokenBudget: r.runGuard.budget(m, agent.StreamOptions{}).PromptTokens(),
	}, engines.CompactSafetyTimeout)
	if out.TimedOut {
		r.log.Warn("the compaction timed out; going on without it", "reason", reason, "error", out.Reason)
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
func (r *Runtime) compactRequest(ctx context.Context, q *guarded, reason engines.CompactReason, cause string) bool {
	if reason == engines.CompactThreshold && r.deferBudgetCompaction(ctx) {
		return false
	}
	annotate(ctx, q.out, AnnotationCompactionStart, CompactionStart{Reason: string(reason)})
	before := r.estimator.Messages(q.llm.Messages)
	summaryCtx := withCooldownSink(ctx, func(info CooldownInfo) { annotate(ctx, q.out, AnnotationCooldown, info) })
	res, ok, errText := r.compact(summaryCtx, q.m, q.llm.Messages, reason, "")
	end := CompactionEnd{Reason: string(reason), Aborted: ctx.Err() != nil, WillRetry: ok, TokensBefore: before, TokensAfter: before}
	if ok {
		end.Result = &CompactionResult{Summary: res.Summary, TokensBefore: before, TokensAfter: r.estimator.Messages(res.Messages)}
		end.TokensAfter = end.Result.TokensAfter
		q.llm.Messages, q.compacted = res.Messages, true
		q.out.Push(ctx, agent.ReplaceContext(res.Messages))
	} else {
		end.ErrorMessage = errText
		if cause != "" {
			end.ErrorMessage = fmt.Sprintf("%s (after: %s)", errText, cause)
		}
	}
	r.announceQuarantines(ctx, q.out)
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
	r.swap.Lock()
	defer r.swap.Unlock()
	st := r.agent.State()
	if st.Running {
		return CompactionEnd{}, agent.ErrBusy
	}
	reason := engines.CompactManual
	if err := r.agent.Announce(agent.Annotation{Kind: AnnotationCompactionStart, Data: CompactionStart{Reason: string(reason)}}); err != nil {
		return CompactionEnd{}, err
	}
	// The summary is a model request: it waits its turn in the session's
	// and the global lane like a run (trigger manual: foreground), and the
	// lane's timeout ends it.
	task, err := r.sched.Enter(ctx, lanes.Request{ID: newID("r_"), Session: r.SessionID(), Trigger: triggerManual,
		SubAgent: r.opts.SubAgent, RunTimeout: r.opts.RunTimeout})
	if err != nil {
		end := CompactionEnd{Reason: string(reason), Aborted: ctx.Err() != nil, ErrorMessage: err.Error()}
		_ = r.agent.Announce(agent.Annotation{Kind: AnnotationCompactionEnd, Data: end})
		return end, err
	}
	defer task.Leave()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(task.Context(), cancel)
	defer stop()
	r.startLanePublisher()
	before := r.estimator.Messages(st.Messages)
	end := CompactionEnd{Reason: string(reason), TokensBefore: before, TokensAfter: before}
	summaryCtx := withCooldownSink(ctx, func(info CooldownInfo) {
		_ = r.agent.Announce(agent.Annotation{Kind: AnnotationCooldown, Data: info})
	})
	res, ok, errText := r.compact(summaryCtx, st.Model, st.Messages, reason, instructions)
	end.Aborted = ctx.Err() != nil
	if ok {
		end.Result = &CompactionResult{Summary: res.Summary, TokensBefore: before, TokensAfter: r.estimator.Messages(res.Messages)}
		end.TokensAfter = end.Result.TokensAfter
		err = r.replaceTranscript(res.Messages)
	} else {
		end.ErrorMessage = errText
		err = errors.New(errText)
		if end.Aborted {
			err = ctx.Err()
		}
	}
	r.noticeQuarantines()
	if aerr := r.agent.Announce(agent.Annotation{Kind: AnnotationCompactionEnd, Data: end}); err == nil {
		err = aerr
	}
	return end, err
}

// replaceTranscript makes msgs the session's transcript, recorded as a run
// of its own (trigger manual) so that the rewrite is fenced like any write;
// the saver keeps the run's begin, the rewrite and its end in order.
func (r *Runtime) replaceTranscript(msgs []agent.Message) error {
	if r.store == nil {
		return r.agent.ReplaceMessages(msgs)
	}
	sessionID, err := r.ensureSession(r.writes.ctx)
	if err != nil {
		return err
	}
	run := persistence.Run{ID: newID("r_"), SessionID: sessionID, Trigger: triggerManual, Started: r.opts.Now()}
	r.mu.Lock()
	r.session.runID = run.ID
	r.mu.Unlock()
	const what = "saving the compaction"
	report := func(err error) { r.writes.saved(what, err) }
	r.writes.add(saveJob{write: func(ctx context.Context) error { return r.store.BeginRun(ctx, run) }, report: report})
	err = r.agent.ReplaceMessages(msgs)
	outcome, errText := OutcomeCompleted, ""
	if err != nil {
		outcome, errText = OutcomeFailed, err.Error()
	}
	ended := r.opts.Now()
	r.writes.add(saveJob{write: func(ctx context.Context) error { return r.store.EndRun(ctx, run.ID, outcome, errText, ended) }, report: report})
	return err
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
