package runner

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/tools"
	"github.com/steer-tui/steer/contextguard/engines"
)

// EngineConfig is an external context engine (contextEngines.NAME): a
// program speaking the protocol of assets/context-engines.md.
type EngineConfig struct {
	Command []string
	// Timeout bounds one call; 0 is engines.DefaultTimeout.
	Timeout time.Duration
	// Dir is the engine's working directory, where relative paths in
	// Command resolve: the directory of the config file that names it.
	// "" is the workspace.
	Dir string
}

// dir is where the engine runs: Dir, else the workspace.
func (ec EngineConfig) dir(workspace string) string {
	if ec.Dir != "" {
		return ec.Dir
	}
	return workspace
}

// engineSetup is what the engines are built from: the options that name
// them and the quarantine store every steer process shares (nil: this
// process's quarantines only).
type engineSetup struct {
	selected      string // agent.contextEngine; "" is legacy
	configured    map[string]EngineConfig
	workspace     string
	parentSession string
	hiddenEnv     []string
	store         engines.QuarantineStore
	log           *slog.Logger
	now           func() time.Time
}

// engineSetupOf is the engine setup that opts describe.
func engineSetupOf(opts Options) engineSetup {
	setup := engineSetup{selected: opts.ContextEngine, configured: opts.ContextEngines, workspace: opts.Workspace,
		parentSession: opts.ParentSession, hiddenEnv: opts.HiddenEnv, log: opts.Logger, now: opts.Now}
	if opts.Store != nil {
		setup.store = opts.Store.EngineQuarantines()
	}
	return setup
}

// contextEngines are the session's context engines: the registry (legacy,
// with the keeper's built-in compaction, plus every configured external
// engine), the selected one behind its quarantine guard, the feed that
// tells it of the session off the event path, and the quarantines not yet
// reported (quarantine.go).
//
// It may call the engines package and, of its session, only id, running
// and notify.
type contextEngines struct {
	setup   engineSetup
	session keptSession
	reg     *engines.Registry
	engine  *engines.Guard
	// feed runs the engine calls made off the event path (nil until
	// startFeed), under callCtx: the runtime's writes, which end at Close.
	feed    *engineFeed
	callCtx context.Context

	// quarantines are the failures recorded and not yet reported.
	mu          sync.Mutex
	quarantines []QuarantineInfo
}

// newContextEngines builds the registry and selects the engine
// setup.selected names behind its quarantine guard. Nothing starts: an
// external engine starts on its first call.
func newContextEngines(setup engineSetup, session keptSession, compact engines.CompactFunc) (*contextEngines, error) {
	e := &contextEngines{setup: setup, session: session}
	e.reg = engines.NewRegistry(engines.Legacy(nil, compact))
	for name, ec := range setup.configured {
		ext := engines.NewExternal(engines.ExternalConfig{Name: name, Command: ec.Command, Dir: ec.dir(setup.workspace),
			Env: tools.CommandEnv(os.Environ(), setup.hiddenEnv), Stderr: engines.StderrLog(setup.log, name)})
		if err := e.reg.Register(name, ext, ec.Timeout); err != nil {
			return nil, err
		}
	}
	g, err := e.reg.Select(setup.selected, engines.GuardOptions{Now: setup.now, OnQuarantine: e.quarantined, Store: setup.store})
	if err != nil {
		return nil, fmt.Errorf("agent.contextEngine: %w", err)
	}
	e.engine = g
	return e, nil
}

// startFeed starts the feed; its calls run under ctx.
func (e *contextEngines) startFeed(ctx context.Context) {
	e.callCtx = ctx
	e.feed = newEngineFeed(ctx)
}

// sessionNow is the session an engine call is about.
func (e *contextEngines) sessionNow() engines.Session {
	id := e.session.id()
	return engines.Session{ID: id, Key: sessionKey(id, e.setup.parentSession), Workspace: e.setup.workspace}
}

// tell tells the engine what happened, off the event path, in order: the
// messages appended (ingest) and each turn's end (afterTurn).
func (e *contextEngines) tell(ev agent.Event) {
	var call func(ctx context.Context) error
	switch ev := ev.(type) {
	case agent.MessageEnd:
		req := engines.IngestRequest{Session: e.sessionNow(), Messages: []agent.Message{ev.Message}}
		call = func(ctx context.Context) error { return e.engine.Ingest(ctx, req) }
	case agent.TurnEnd:
		msgs := append([]agent.Message{ev.Message}, ev.ToolResults...)
		req := engines.AfterTurnRequest{Session: e.sessionNow(), Messages: msgs}
		call = func(ctx context.Context) error { return e.engine.AfterTurn(ctx, req) }
	default:
		return
	}
	e.feed.add(func() {
		if err := call(e.callCtx); err != nil {
			e.setup.log.Warn("telling the context engine failed", "error", err)
		}
		if !e.session.running() {
			e.noticeQuarantines() // else the run's next request reports it, in order
		}
	})
}

// view is the context engines as the inspectors show them: the one that
// answers, every configured one, the quarantines (shared through the
// database, else this process's). It starts no engine.
func (e *contextEngines) view(ctx context.Context) (EnginesView, error) {
	refs := make([]EngineRef, 0, len(e.setup.configured))
	for name, ec := range e.setup.configured {
		refs = append(refs, EngineRef{Name: name, Command: ec.Command, Timeout: ec.Timeout})
	}
	if e.setup.store != nil {
		return InspectEngines(ctx, e.setup.store, e.setup.selected, refs)
	}
	var qs []engines.Quarantine
	if q, ok := e.engine.Quarantine(ctx); ok {
		qs = append(qs, q)
	}
	return ViewEngines(e.setup.selected, refs, qs), nil
}

// clear lifts engine's quarantine (for every steer process on the state
// directory) and tells the front ends (NoticeQuarantineCleared); false
// when it had none.
func (e *contextEngines) clear(ctx context.Context, engine string) (bool, error) {
	// The engine is told of a run's last messages after the run ends: those
	// notifications go first, to the built-in engine standing in, rather
	// than to the engine just cleared, which would fail them again.
	if err := e.feed.flush(ctx); err != nil {
		return false, err
	}
	var had bool
	var err error
	switch {
	case engine == e.engine.Name():
		had, err = e.engine.Clear(ctx)
	case e.setup.store != nil:
		had, err = e.setup.store.Clear(ctx, engine)
	}
	if had {
		c := QuarantineCleared{Engine: engine}
		e.session.notify(NoticeQuarantineCleared, c.Line(), c)
	}
	return had, err
}

// close stops the feed, waits (until ctx ends) for its call under way, and
// then stops the engines: no engine call goes on while they close.
func (e *contextEngines) close(ctx context.Context) {
	e.feed.stop()
	e.feed.wait(ctx)
	if err := e.reg.Close(); err != nil {
		e.setup.log.Warn("stopping the context engines failed", "error", err)
	}
}

// Engines is the context engines as the inspectors show them (see
// contextEngines.view).
func (i *inspectors) Engines(ctx context.Context) (EnginesView, error) {
	return i.keeper.engines.view(ctx)
}

// ClearQuarantine lifts engine's quarantine (for every steer process on the
// state directory); false when it had none.
func (i *inspectors) ClearQuarantine(ctx context.Context, engine string) (bool, error) {
	return i.keeper.engines.clear(ctx, engine)
}
