package runner

import (
	"context"
	"log/slog"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/contextguard"
	"github.com/steer-tui/steer/lanes"
)

// contextKeeper keeps a session's context within its model's window (SPEC
// §6): the pre-request guard and its estimator on every request
// (guard.go), what the guard remembers of the run (runGuard), the context
// engines behind their quarantine guard (contextEngines, engines.go), and
// the compactions — in a request (budget, overflow, timeout), manual
// (/compact) and in the background for an engine that owns compaction
// (compact.go, compact_background.go).
//
// It may call the contextguard and engines packages, its session
// (keptSession) and the request path (requestPath), and nothing else of
// the runtime: the runtime answers both through keeperPort (keeper_port.go).
type contextKeeper struct {
	session keptSession
	path    requestPath
	log     *slog.Logger
	now     func() time.Time

	guard     *contextguard.Guard
	estimator *contextguard.Estimator
	run       runGuard
	engines   *contextEngines
	bg        backgroundCompaction
}

// keptSession is the session as the keeper sees it: its transcript, the
// inputs it holds off while a compaction rewrites it, and the notices it
// tells the front ends. Every method may be called from any goroutine.
type keptSession interface {
	// id names the current session.
	id() string
	// state is the agent's snapshot; running whether a run is under way.
	state() agent.State
	running() bool
	// waitIdle waits until no run is active, or ctx ends.
	waitIdle(ctx context.Context) error
	// announce puts an annotation on the session's events outside a run.
	announce(a agent.Annotation) error
	// preCompact runs the PreCompact hooks before a compaction, and
	// compacted says that one happened (SessionStart runs again).
	preCompact(ctx context.Context, manual bool, instructions string)
	compacted(ctx context.Context)
	// replaceTranscript makes msgs the session's transcript, saved.
	replaceTranscript(msgs []agent.Message) error
	// holdInputs keeps inputs and session switches out until release.
	holdInputs() (release func())
	// notify tells every front end of a fact outside a request.
	notify(kind NoticeKind, text string, data any)
}

// requestPath is what a request needs beyond the guard: the lanes it waits
// in and the attempt loop that makes it (its profiles, its fallbacks).
type requestPath interface {
	// enterLanes enters the run's lanes, once per run (see
	// Runtime.enterLanes); manualLane enters them for a manual compaction.
	enterLanes(ctx context.Context, out *agent.AssistantStream) (context.Context, error)
	manualLane(ctx context.Context) (*lanes.Task, error)
	// maintain marks the session's deferred maintenance in the lanes; done
	// ends it.
	maintain(session string) (done func())
	// attempts runs the attempt loop for a guarded request; summaries is
	// the attempt loop alone as a StreamFn, for a compaction's summary.
	attempts(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions, tc *timeoutChain) *agent.AssistantStream
	summaries(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream
	// modelChain is m and its usable fallbacks.
	modelChain(m agent.Model) []agent.Model
	// compactForTimeout is the timeout chain's step (timeoutchain.go).
	compactForTimeout(ctx context.Context, q *guarded, final agent.AssistantEvent) bool
	// spendAllows checks the spend cap for a request of inputTokens to m
	// (budget.go), putting its budget event on out; false: not sent.
	spendAllows(ctx context.Context, m agent.Model, inputTokens int, out *agent.AssistantStream) bool
	// spendCharge counts what the request that ended with final cost.
	spendCharge(final agent.AssistantEvent)
}

// newContextKeeper builds the keeper and the engines of setup; nothing
// starts until startFeed.
func newContextKeeper(session keptSession, path requestPath, setup engineSetup) (*contextKeeper, error) {
	k := &contextKeeper{session: session, path: path, log: setup.log, now: setup.now}
	k.estimator = contextguard.NewEstimator()
	k.guard = contextguard.NewGuard(k.estimator)
	e, err := newContextEngines(setup, session, k.compactBuiltin)
	if err != nil {
		return nil, err
	}
	k.engines = e
	return k, nil
}

// observe is the keeper's subscriber: the engine is told of the session's
// messages and turns, and at the run's end the compaction deferred to the
// background, if any, starts after them (and after the run is over, see
// awaitRunOver).
func (k *contextKeeper) observe(ev agent.Event) {
	switch ev.(type) {
	case agent.AgentStart:
		k.bg.runStarted()
	case agent.AgentEnd:
		k.scheduleBackgroundCompaction()
	default:
		k.engines.tell(ev)
	}
}
