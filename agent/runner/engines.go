package runner

import (
	"context"
	"fmt"
	"os"
	"strings"
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

// AnnotationQuarantine reports a context engine put in quarantine (Data:
// QuarantineInfo): its calls are answered by the built-in engine until the
// quarantine is cleared.
const AnnotationQuarantine = "quarantine"

// QuarantineInfo is what a quarantine event says.
type QuarantineInfo struct {
	Engine string `json:"engine"`
	Method string `json:"method"`
	Reason string `json:"reason"`
	Error  string `json:"error"`
	// Stderr is the end of what the engine wrote on stderr before it failed
	// (a few lines, sanitised), where a program says what went wrong.
	Stderr string `json:"stderr,omitempty"`
	// Count is the quarantine's failures so far, this one included: 1 for
	// the failure that began it.
	Count int `json:"count"`
}

// First reports whether this failure began the quarantine. Calls in flight
// together (the engine told of a message while asked for a request's
// context) fail together; a front end that tells the user once per
// quarantine tells only the first.
func (q QuarantineInfo) First() bool { return q.Count <= 1 }

// setUpEngines builds the engine registry (legacy, with the built-in
// compaction, plus every configured external engine) and selects the one
// agent.contextEngine names behind its quarantine guard. Nothing starts:
// an external engine starts on its first call.
func (r *Runtime) setUpEngines() error {
	r.engineReg = engines.NewRegistry(engines.Legacy(nil, r.compactBuiltin))
	for name, ec := range r.opts.ContextEngines {
		ext := engines.NewExternal(engines.ExternalConfig{Name: name, Command: ec.Command, Dir: ec.dir(r.opts.Workspace),
			Env: engineEnv(r.opts.HiddenEnv), Stderr: engines.StderrLog(r.log, name)})
		if err := r.engineReg.Register(name, ext, ec.Timeout); err != nil {
			return err
		}
	}
	opts := engines.GuardOptions{Now: r.opts.Now, OnQuarantine: r.quarantined}
	if r.store != nil {
		opts.Store = r.store.EngineQuarantines()
	}
	g, err := r.engineReg.Select(r.opts.ContextEngine, opts)
	if err != nil {
		return fmt.Errorf("agent.contextEngine: %w", err)
	}
	r.engine = g
	return nil
}

// quarantined is told of each failure the guard recorded; the failure
// reaches the front ends with the next request's events (takeQuarantines),
// or as a notice when no request is under way.
func (r *Runtime) quarantined(ev engines.QuarantineEvent) {
	info := QuarantineInfo{Engine: ev.Quarantine.Engine, Method: string(ev.Method), Reason: string(ev.Reason),
		Stderr: ev.Stderr, Count: ev.Quarantine.Count}
	if ev.Err != nil {
		info.Error = ev.Err.Error()
	}
	r.log.Warn("context engine quarantined", "engine", info.Engine, "method", info.Method, "reason", info.Reason,
		"error", info.Error, "stderr", info.Stderr, "count", info.Count, "storeError", ev.StoreErr)
	r.quarantineMu.Lock()
	r.quarantines = append(r.quarantines, info)
	r.quarantineMu.Unlock()
}

// takeQuarantines returns the quarantines recorded since the last call.
func (r *Runtime) takeQuarantines() []QuarantineInfo {
	r.quarantineMu.Lock()
	defer r.quarantineMu.Unlock()
	q := r.quarantines
	r.quarantines = nil
	return q
}

// announceQuarantines puts the quarantines recorded so far into a
// request's events.
func (r *Runtime) announceQuarantines(ctx context.Context, out *agent.AssistantStream) {
	for _, q := range r.takeQuarantines() {
		out.Push(ctx, agent.Annotate(agent.Annotation{Kind: AnnotationQuarantine, Data: q}))
	}
}

// noticeQuarantines reports, as notices, quarantines recorded outside a
// request and not reported by one: an engine told of the last turn of a
// run, or of a session between runs.
func (r *Runtime) noticeQuarantines() {
	for _, q := range r.takeQuarantines() {
		r.notifyData(NoticeQuarantine, q.Summary(), q)
	}
}

// engineSession is the session an engine call is about.
func (r *Runtime) engineSession() engines.Session {
	id := r.SessionID()
	return engines.Session{ID: id, Key: sessionKey(id, r.opts.ParentSession), Workspace: r.opts.Workspace}
}

// feedEngine tells the engine what happened, off the event path, in order:
// the messages appended (ingest) and each turn's end (afterTurn); at the
// run's end it starts the compaction deferred to the background, if any.
func (r *Runtime) feedEngine(ev agent.Event) {
	var call func(ctx context.Context) error
	switch e := ev.(type) {
	case agent.AgentEnd:
		r.scheduleBackgroundCompaction()
		return
	case agent.MessageEnd:
		req := engines.IngestRequest{Session: r.engineSession(), Messages: []agent.Message{e.Message}}
		call = func(ctx context.Context) error { return r.engine.Ingest(ctx, req) }
	case agent.TurnEnd:
		msgs := append([]agent.Message{e.Message}, e.ToolResults...)
		req := engines.AfterTurnRequest{Session: r.engineSession(), Messages: msgs}
		call = func(ctx context.Context) error { return r.engine.AfterTurn(ctx, req) }
	default:
		return
	}
	r.engineFeed.add(func() {
		if err := call(r.writes.ctx); err != nil {
			r.log.Warn("telling the context engine failed", "error", err)
		}
		if !r.agent.Running() {
			r.noticeQuarantines() // else the run's next request reports it, in order
		}
	})
}

// engineFeed runs engine notifications one at a time, in order, on one
// goroutine, so that a slow engine never holds up the event path.
type engineFeed struct {
	// ctx is cancelled by stop: a long job (a background compaction) ends
	// with the feed instead of holding Close.
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	jobs    []feedJob
	idle    chan struct{} // closed while no job is queued or running
	wake    chan struct{}
	stopped bool
	done    chan struct{}
}

// feedJob is one job of the feed; drop (optional) is called instead of run
// when the feed stops before the job's turn, for a job that holds something
// only it releases.
type feedJob struct {
	run, drop func()
}

// newEngineFeed starts a feed whose context ends with parent or at stop.
func newEngineFeed(parent context.Context) *engineFeed {
	ctx, cancel := context.WithCancel(parent)
	f := &engineFeed{ctx: ctx, cancel: cancel, idle: make(chan struct{}), wake: make(chan struct{}, 1), done: make(chan struct{})}
	close(f.idle)
	go f.run()
	return f
}

func (f *engineFeed) add(job func()) { f.addJob(feedJob{run: job}) }

// addJob queues job; after stop it is dropped at once.
func (f *engineFeed) addJob(job feedJob) {
	f.mu.Lock()
	if f.stopped {
		f.mu.Unlock()
		job.dropped()
		return
	}
	f.jobs = append(f.jobs, job)
	select {
	case <-f.idle:
		f.idle = make(chan struct{})
	default: // already busy
	}
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

func (j feedJob) dropped() {
	if j.drop != nil {
		j.drop()
	}
}

func (f *engineFeed) run() {
	defer close(f.done)
	for range f.wake {
		for {
			f.mu.Lock()
			if len(f.jobs) == 0 {
				select {
				case <-f.idle:
				default:
					close(f.idle)
				}
				stopped := f.stopped
				f.mu.Unlock()
				if stopped {
					return
				}
				break
			}
			job := f.jobs[0]
			f.jobs = f.jobs[1:]
			f.mu.Unlock()
			job.run()
		}
	}
}

// flush waits (until ctx ends) until no job is queued or running, so also
// for jobs added while it waits.
func (f *engineFeed) flush(ctx context.Context) error {
	f.mu.Lock()
	idle := f.idle
	f.mu.Unlock()
	return agent.WaitClosed(ctx, idle)
}

// wait waits (until ctx ends) for the goroutine to end after stop.
func (f *engineFeed) wait(ctx context.Context) {
	select {
	case <-f.done:
	case <-ctx.Done():
	}
}

// stop drops what is not yet done, cancels the feed's context and ends the
// goroutine.
func (f *engineFeed) stop() {
	f.mu.Lock()
	dropped := f.jobs
	f.stopped, f.jobs = true, nil
	f.mu.Unlock()
	f.cancel()
	for _, j := range dropped {
		j.dropped()
	}
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// engineEnv is steer's environment without a key: an engine is a program
// the user configured, but it has no business with provider keys.
func engineEnv(hidden []string) []string {
	skip := map[string]bool{}
	for _, h := range hidden {
		skip[h] = true
	}
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !skip[name] && !tools.IsSecretEnv(name) {
			env = append(env, kv)
		}
	}
	return env
}

// Engines is the context engines as the inspectors show them: the one that
// answers, every configured one, the quarantines (shared through the
// database, else this process's). It starts no engine.
func (r *Runtime) Engines(ctx context.Context) (EnginesView, error) {
	refs := make([]EngineRef, 0, len(r.opts.ContextEngines))
	for name, ec := range r.opts.ContextEngines {
		refs = append(refs, EngineRef{Name: name, Command: ec.Command, Timeout: ec.Timeout})
	}
	if r.store != nil {
		return InspectEngines(ctx, r.store.EngineQuarantines(), r.opts.ContextEngine, refs)
	}
	var qs []engines.Quarantine
	if q, ok := r.engine.Quarantine(ctx); ok {
		qs = append(qs, q)
	}
	return ViewEngines(r.opts.ContextEngine, refs, qs), nil
}

// ClearQuarantine lifts engine's quarantine (for every steer process on the
// state directory); false when it had none.
func (r *Runtime) ClearQuarantine(ctx context.Context, engine string) (bool, error) {
	// The engine is told of a run's last messages after the run ends: those
	// notifications go first, to the built-in engine standing in, rather
	// than to the engine just cleared, which would fail them again.
	if err := r.engineFeed.flush(ctx); err != nil {
		return false, err
	}
	if engine == r.engine.Name() {
		return r.engine.Clear(ctx)
	}
	if r.store == nil {
		return false, nil
	}
	return r.store.EngineQuarantines().Clear(ctx, engine)
}

// Summary says in one line what happened, for the transcript's notice and
// steer run's stderr.
func (q QuarantineInfo) Summary() string {
	s := fmt.Sprintf("context engine %s quarantined: %s failed (%s); the built-in engine answers instead", q.Engine, q.Method, q.Reason)
	if q.Stderr != "" {
		s += "; its stderr ended: " + q.Stderr
	}
	return s
}
