package runner

import (
	"context"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/lanes"
	"github.com/steer-tui/steer/persistence"
)

// keeperPort is the runtime as the context keeper sees it (keptSession and
// requestPath): every call the keeper makes outside itself goes through
// here, so this file is the whole of what it depends on.
type keeperPort struct{ r *Runtime }

var (
	_ keptSession = keeperPort{}
	_ requestPath = keeperPort{}
)

func (p keeperPort) id() string                         { return p.r.SessionID() }
func (p keeperPort) state() agent.State                 { return p.r.agent.State() }
func (p keeperPort) running() bool                      { return p.r.agent.Running() }
func (p keeperPort) waitIdle(ctx context.Context) error { return p.r.agent.WaitForIdle(ctx) }
func (p keeperPort) announce(a agent.Annotation) error  { return p.r.agent.Announce(a) }

// compacted runs SessionStart (source compact) at once, as Claude Code
// does; its context joins the requests after the one under way, whose
// prompt is built already.
func (p keeperPort) compacted(ctx context.Context) {
	p.r.sessionHooks.began(sessionCompact)
	p.r.sessionHooks.beforeRequest(ctx)
}

func (p keeperPort) preCompact(ctx context.Context, manual bool, instructions string) {
	p.r.sessionHooks.preCompact(ctx, manual, instructions)
}

func (p keeperPort) notify(kind NoticeKind, text string, data any) {
	p.r.notifyData(kind, text, data)
}

func (p keeperPort) holdInputs() (release func()) {
	p.r.swap.Lock()
	return p.r.swap.Unlock
}

// replaceTranscript makes msgs the session's transcript, recorded as a run
// of its own (trigger manual) so that the rewrite is fenced like any write;
// the saver keeps the run's begin, the rewrite and its end in order.
func (p keeperPort) replaceTranscript(msgs []agent.Message) error {
	r := p.r
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

func (p keeperPort) enterLanes(ctx context.Context, out *agent.AssistantStream) (context.Context, error) {
	return p.r.enterLanes(ctx, out)
}

// manualLane enters the session's and the global lane for a manual
// compaction, as a foreground run would.
func (p keeperPort) manualLane(ctx context.Context) (*lanes.Task, error) {
	r := p.r
	task, err := r.sched.Enter(ctx, lanes.Request{ID: newID("r_"), Session: r.SessionID(), Trigger: triggerManual,
		SubAgent: r.opts.SubAgent, RunTimeout: r.opts.RunTimeout})
	if err != nil {
		return nil, err
	}
	r.startLanePublisher()
	return task, nil
}

func (p keeperPort) maintain(session string) (done func()) { return p.r.sched.Maintain(session) }

func (p keeperPort) attempts(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions, tc *timeoutChain) *agent.AssistantStream {
	return p.r.attempts.goStream(m, func(out *agent.AssistantStream) { p.r.attempts.run(ctx, m, llm, opts, out, tc) })
}

func (p keeperPort) summaries(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
	return p.r.attempts.stream(ctx, m, llm, opts)
}

func (p keeperPort) modelChain(m agent.Model) []agent.Model { return p.r.catalog.modelChain(m) }

func (p keeperPort) compactForTimeout(ctx context.Context, q *guarded, final agent.AssistantEvent) bool {
	return p.r.compactForTimeout(ctx, q, final)
}

func (p keeperPort) spendAllows(ctx context.Context, m agent.Model, inputTokens int, out *agent.AssistantStream) bool {
	return p.r.spendAllows(ctx, m, inputTokens, out)
}

func (p keeperPort) spendCharge(final agent.AssistantEvent) { p.r.spendCharge(final) }
