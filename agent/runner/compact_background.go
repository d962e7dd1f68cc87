package runner

import (
	"context"
	"errors"
	"reflect"
	"sync"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/contextguard/engines"
)

// NoticeCompaction reports a compaction that ran outside a request: the
// budget compaction of an engine that owns compaction, deferred to the end
// of the run. Data is its CompactionEnd; a failure is reported as one too,
// and changes nothing.
const NoticeCompaction NoticeKind = "compaction"

// backgroundCompaction is the budget compaction kept off the request path
// for an engine that owns compaction (seed 000 §6.2:
// shouldDeferOwningContextEngineBudgetCompaction): a request that would
// have compacted marks it due and goes on, and the run's end asks the
// engine to compact in the background (scheduleBackgroundCompaction).
type backgroundCompaction struct {
	mu  sync.Mutex
	due bool
	// reserved is the lanes' maintenance mark of a due compaction, taken
	// before the run left its lanes (reserveBackgroundCompaction); the
	// feed's job calls it when done.
	reserved func()
	// parked is a background compaction that finished while the session's
	// next run waited for it in the lane; that run adopts it.
	parked *parkedCompaction
	// nextRun ends the context of awaitNextRun when the session's next run
	// starts (runStarted, at its agent_start).
	nextRun context.CancelFunc
}

// parkedCompaction is a finished background compaction of session's
// transcript base.
type parkedCompaction struct {
	session string
	base    []agent.Message
	res     engines.CompactResult
	end     CompactionEnd
}

func (b *backgroundCompaction) mark() {
	b.mu.Lock()
	b.due = true
	b.mu.Unlock()
}

// take reports whether a compaction is due, clearing it.
func (b *backgroundCompaction) take() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	due := b.due
	b.due = false
	return due
}

func (b *backgroundCompaction) reserve(done func()) {
	b.mu.Lock()
	b.reserved = done
	b.mu.Unlock()
}

// takeReserved is the reservation of the compaction to run now, nil when
// none is due.
func (b *backgroundCompaction) takeReserved() func() {
	b.mu.Lock()
	defer b.mu.Unlock()
	done := b.reserved
	b.reserved = nil
	return done
}

func (b *backgroundCompaction) park(p *parkedCompaction) {
	b.mu.Lock()
	b.parked = p
	b.mu.Unlock()
}

func (b *backgroundCompaction) takeParked() *parkedCompaction {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.parked
	b.parked = nil
	return p
}

// awaitNextRun is a context that ends when the session's next run starts.
func (b *backgroundCompaction) awaitNextRun() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	b.mu.Lock()
	if b.nextRun != nil {
		b.nextRun()
	}
	b.nextRun = cancel
	b.mu.Unlock()
	return ctx
}

// runStarted ends the context of awaitNextRun, if any.
func (b *backgroundCompaction) runStarted() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.nextRun != nil {
		b.nextRun()
		b.nextRun = nil
	}
}

// deferBudgetCompaction keeps a budget compaction off the request path
// when the engine owns compaction: the request goes on uncompacted (the
// pre-request guard still trims what it sends to the window), and the
// engine compacts once the run has ended. It reports whether it deferred.
// A quarantined engine reports the built-in engine's info, which owns
// nothing: then the compaction happens here, as the built-in one.
func (k *contextKeeper) deferBudgetCompaction(ctx context.Context) bool {
	info, err := k.engines.engine.Info(ctx)
	if err != nil || !info.OwnsCompaction {
		return false
	}
	k.bg.mark()
	k.log.Info("budget compaction deferred to the background: the context engine owns compaction", "engine", info.Name)
	return true
}

// reserveBackgroundCompaction registers the deferred compaction, if one is
// due, with the lanes as the session's maintenance. It runs at agent_end
// before the run leaves its lanes (laneProgress), so nothing queued in the
// session's lane — its next run, a /compact — gets in ahead of it.
func (k *contextKeeper) reserveBackgroundCompaction() {
	if k.bg.take() {
		k.bg.reserve(k.path.maintain(k.session.id()))
	}
}

// scheduleBackgroundCompaction runs the reserved compaction on the engine
// feed: after the engine has been told of the run's last turn, and off the
// event path; the session's next run waits for it and reads what it wrote.
func (k *contextKeeper) scheduleBackgroundCompaction() {
	done := k.bg.takeReserved()
	if done == nil {
		return
	}
	st := k.session.state()
	session := k.session.id()
	next := k.bg.awaitNextRun()
	k.engines.feed.addJob(feedJob{
		run: func() {
			defer done()
			k.awaitRunOver(next)
			k.compactInBackground(k.engines.feed.ctx, session, st.Model, st.Messages)
		},
		drop: done,
	})
}

// awaitRunOver waits until the run that scheduled the compaction is over:
// the agent idle, or the session's next run started (next ends), which
// waits in its lane for the compaction and adopts it. The run's agent_end
// is still being handed to subscribers when the job may start; a
// compaction applied then would find the run active and park for a run
// that may never come.
func (k *contextKeeper) awaitRunOver(next context.Context) {
	ctx, cancel := context.WithCancel(next)
	defer cancel()
	stop := context.AfterFunc(k.engines.feed.ctx, cancel)
	defer stop()
	_ = k.session.waitIdle(ctx)
}

// compactInBackground asks the engine to compact base, the transcript as
// the run left it, and makes the result the session's transcript. Its
// failure is a notice and a log line; the session stays as it was.
func (k *contextKeeper) compactInBackground(ctx context.Context, session string, m agent.Model, base []agent.Message) {
	reason := engines.CompactThreshold
	before := k.estimator.Messages(base)
	res, ok, errText := k.compact(ctx, m, base, reason, "")
	end := CompactionEnd{Reason: string(reason), Aborted: ctx.Err() != nil, TokensBefore: before, TokensAfter: before}
	if !k.session.running() {
		k.engines.noticeQuarantines() // else the next request reports them
	}
	if !ok {
		end.ErrorMessage = errText
		k.log.Warn("the background compaction did not happen", "error", errText, "aborted", end.Aborted)
		if !end.Aborted {
			k.session.notify(NoticeCompaction, end.Summary(), end)
		}
		return
	}
	end.Result = &CompactionResult{Summary: res.Summary, TokensBefore: before, TokensAfter: k.estimator.Messages(res.Messages)}
	end.TokensAfter = end.Result.TokensAfter
	if err := k.applyBackgroundCompaction(&parkedCompaction{session: session, base: base, res: res, end: end}); err != nil {
		end.Result, end.TokensAfter = nil, before
		end.ErrorMessage = err.Error()
		k.log.Warn("the background compaction could not be applied", "error", err)
		k.session.notify(NoticeCompaction, end.Summary(), end)
	}
}

// errStaleCompaction is a background compaction of a transcript that has
// changed other than by growing since (another session, a rewrite).
var errStaleCompaction = errors.New("the session changed while it was compacted in the background")

// applyBackgroundCompaction makes p the session's transcript. Between runs
// it is written at once, with what was appended since kept after it; while
// a run is active — the session's next one, waiting in its lane for this
// maintenance — it is parked for that run to adopt at its first request.
func (k *contextKeeper) applyBackgroundCompaction(p *parkedCompaction) error {
	release := k.session.holdInputs() // no input starts a run, no session switch, meanwhile
	defer release()
	st := k.session.state()
	if k.session.id() != p.session || !extends(st.Messages, p.base) {
		return errStaleCompaction
	}
	if st.Running {
		k.bg.park(p)
		return nil
	}
	if err := k.session.replaceTranscript(rebase(p, st.Messages)); err != nil {
		return err
	}
	k.session.notify(NoticeCompaction, p.end.Summary(), p.end)
	return nil
}

// adoptBackgroundCompaction gives the run's first request the background
// compaction that finished while the run waited for it in the lane: the
// compacted transcript, with the run's new messages after it, replaces the
// run's context (and so the stored session), and the compaction's
// annotations go out with the request's events.
func (k *contextKeeper) adoptBackgroundCompaction(ctx context.Context, q *guarded) {
	p := k.bg.takeParked()
	if p == nil {
		return
	}
	if p.session != k.session.id() || !extends(q.llm.Messages, p.base) {
		k.log.Warn("a background compaction was dropped", "error", errStaleCompaction)
		return
	}
	msgs := rebase(p, q.llm.Messages)
	annotate(ctx, q.out, AnnotationCompactionStart, CompactionStart{Reason: p.end.Reason})
	q.llm.Messages, q.compacted = msgs, true
	q.out.Push(ctx, agent.ReplaceContext(msgs))
	annotate(ctx, q.out, AnnotationCompactionEnd, p.end)
}

// rebase is the compacted transcript of p followed by what now has after
// p's base.
func rebase(p *parkedCompaction, now []agent.Message) []agent.Message {
	out := make([]agent.Message, 0, len(p.res.Messages)+len(now)-len(p.base))
	return append(append(out, p.res.Messages...), now[len(p.base):]...)
}

// extends reports whether now is base with messages appended: its length
// at least base's, and base's last message in its place. A transcript only
// grows between a compaction's snapshot and its result unless it was
// rewritten, which changes that message or the length.
func extends(now, base []agent.Message) bool {
	if len(now) < len(base) {
		return false
	}
	return len(base) == 0 || reflect.DeepEqual(now[len(base)-1], base[len(base)-1])
}
