package engines

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
	"unicode/utf8"
)

// DefaultTimeout bounds one call of an engine whose configuration sets no
// timeoutSeconds.
const DefaultTimeout = 30 * time.Second

// recordTimeout bounds storing a quarantine. The write outlives the
// caller's context on purpose: an abort racing a failure must not lose it.
const recordTimeout = 10 * time.Second

// maxErrorText bounds the error text a quarantine keeps (the database row,
// the inspector's column), before the quoted stderr (at most tailBytes);
// the full error goes to the event and the log.
const maxErrorText = 1000

// errTimedOut is the cause of the context of a call that ran out of time.
var errTimedOut = errors.New("the engine did not answer in time")

// Resetter is an engine whose broken state can be dropped: External kills
// its process, and the next call starts a fresh one. The Guard resets an
// engine when it quarantines it.
type Resetter interface {
	Reset()
}

// GuardOptions configure a Guard. Zero values are the defaults.
type GuardOptions struct {
	// Timeout bounds one call of the engine; 0 is DefaultTimeout.
	Timeout time.Duration
	// Store keeps quarantines; nil keeps them in this process only.
	Store QuarantineStore
	// OnQuarantine is told of every failure recorded, on the goroutine of
	// the call that failed, before the default engine answers it. It must
	// not call the Guard.
	OnQuarantine func(QuarantineEvent)
	// Now stamps quarantines; it defaults to time.Now.
	Now func() time.Time
}

// Guard is the quarantine wrapper around one engine (SPEC §6.4); it is an
// Engine itself, the one the runner calls. Every method:
//
//   - returns the caller's ctx.Err() when ctx is done before or during the
//     call, and records nothing;
//   - answers with the fallback (default) engine while the engine is
//     quarantined — Info included, so that it then reports the default;
//   - otherwise calls the engine within the time limit; an error, a panic,
//     a timeout, a crash or a result that breaks its contract records a
//     quarantine (Store, OnQuarantine), resets the engine and answers with
//     the fallback engine, whose own errors are returned as they are.
//
// A Compact result that delegates is answered with the fallback's Compact.
// An error wrapping ErrClosed is returned as it is: the engine was shut down
// by its owner, not broken.
//
// Whether the engine is quarantined is read from the Store on every call,
// so a quarantine recorded by another steer process applies here at once and
// one cleared anywhere (`steer inspect engines --clear`) is lifted; when the
// store cannot be read, or could not record one, this process's own record
// decides. A call the Guard gave up on (time limit) may go on running in the
// background if the engine ignores its context; it cannot answer anymore.
//
// A Guard is safe for concurrent use.
type Guard struct {
	name     string
	engine   Engine
	fallback Engine
	opts     GuardOptions

	mu    sync.Mutex
	local held
	// gen counts the changes of local, so that a store read that raced one
	// does not undo it.
	gen uint64
}

// held is what this process knows of the engine's quarantine.
type held struct {
	q  Quarantine
	on bool
	// saved: q is in the store, so the store's saying otherwise means it
	// was cleared there.
	saved bool
}

// NewGuard guards engine, known as name, with fallback answering in its
// place. A nil fallback means engine is the default engine itself: calls go
// straight to it, as there is nothing to fall back on.
func NewGuard(name string, engine, fallback Engine, opts GuardOptions) *Guard {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Guard{name: name, engine: engine, fallback: fallback, opts: opts}
}

var _ Engine = (*Guard)(nil)

// Name is the name the guarded engine is configured under.
func (g *Guard) Name() string { return g.name }

// Info implements Engine: while quarantined, the default engine's.
func (g *Guard) Info(ctx context.Context) (Info, error) {
	res, _, err := guarded(g, ctx, MethodInfo, struct{}{},
		func(e Engine) call[struct{}, Info] {
			return func(ctx context.Context, _ struct{}) (Info, error) { return e.Info(ctx) }
		}, nil)
	return res, err
}

// Bootstrap implements Engine.
func (g *Guard) Bootstrap(ctx context.Context, req BootstrapRequest) error {
	_, _, err := guarded(g, ctx, MethodBootstrap, req,
		func(e Engine) call[BootstrapRequest, struct{}] { return noResult(e.Bootstrap) }, nil)
	return err
}

// Ingest implements Engine.
func (g *Guard) Ingest(ctx context.Context, req IngestRequest) error {
	_, _, err := guarded(g, ctx, MethodIngest, req,
		func(e Engine) call[IngestRequest, struct{}] { return noResult(e.Ingest) }, nil)
	return err
}

// Assemble implements Engine.
func (g *Guard) Assemble(ctx context.Context, req AssembleRequest) (AssembleResult, error) {
	res, _, err := guarded(g, ctx, MethodAssemble, req,
		func(e Engine) call[AssembleRequest, AssembleResult] { return e.Assemble }, checkAssemble)
	return res, err
}

// Compact implements Engine; a delegating answer is the fallback's Compact.
func (g *Guard) Compact(ctx context.Context, req CompactRequest) (CompactResult, error) {
	res, src, err := guarded(g, ctx, MethodCompact, req,
		func(e Engine) call[CompactRequest, CompactResult] { return e.Compact }, checkCompact)
	if err == nil && res.Delegate && src == fromEngine && g.fallback != nil {
		return g.fallback.Compact(ctx, req)
	}
	return res, err
}

// AfterTurn implements Engine.
func (g *Guard) AfterTurn(ctx context.Context, req AfterTurnRequest) error {
	_, _, err := guarded(g, ctx, MethodAfterTurn, req,
		func(e Engine) call[AfterTurnRequest, struct{}] { return noResult(e.AfterTurn) }, nil)
	return err
}

// Quarantine returns the engine's quarantine as it stands, or false when
// the engine is trusted.
func (g *Guard) Quarantine(ctx context.Context) (Quarantine, bool) {
	if !g.quarantined(ctx) {
		return Quarantine{}, false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.local.q, true
}

// Clear lifts the engine's quarantine, in the store and here, reporting
// whether it had one; the next call tries the engine again.
func (g *Guard) Clear(ctx context.Context) (bool, error) {
	var had bool
	if g.opts.Store != nil {
		var err error
		if had, err = g.opts.Store.Clear(ctx, g.name); err != nil {
			return false, fmt.Errorf("clear the quarantine of context engine %s: %w", g.name, err)
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	had = had || g.local.on
	g.local = held{}
	g.gen++
	return had, nil
}

// call is one Engine method as a function of its request.
type call[Req, Res any] func(context.Context, Req) (Res, error)

// noResult adapts a method that returns only an error.
func noResult[Req any](m func(context.Context, Req) error) call[Req, struct{}] {
	return func(ctx context.Context, req Req) (struct{}, error) { return struct{}{}, m(ctx, req) }
}

// source says which engine answered.
type source int

const (
	fromEngine source = iota
	fromFallback
)

// guarded runs method m of the guarded engine by the rules of Guard; pick
// selects the method of an engine, check (optional) the result's contract.
func guarded[Req, Res any](g *Guard, ctx context.Context, m Method, req Req,
	pick func(Engine) call[Req, Res], check func(Req, Res) error) (Res, source, error) {
	if g.fallback == nil {
		res, err := pick(g.engine)(ctx, req)
		return res, fromEngine, err
	}
	var zero Res
	if err := ctx.Err(); err != nil {
		return zero, fromEngine, err
	}
	if !g.quarantined(ctx) {
		res, expired, err := attempt(ctx, g.opts.Timeout, pick(g.engine), req)
		var broken error
		if err == nil && check != nil {
			broken = check(req, res)
		}
		pass, fail := judge(ctx.Err(), expired, err, broken, g.opts.Timeout)
		switch {
		case pass != nil:
			return zero, fromEngine, pass
		case fail == nil:
			return res, fromEngine, nil
		}
		g.record(ctx, m, fail)
	}
	res, err := pick(g.fallback)(ctx, req)
	return res, fromFallback, err
}

// attempt calls fn within limit on its own goroutine, so that neither a
// panic nor an engine that ignores its context can hold the caller; expired
// reports that the limit passed before an answer.
func attempt[Req, Res any](ctx context.Context, limit time.Duration, fn call[Req, Res], req Req) (res Res, expired bool, err error) {
	cctx, cancel := context.WithTimeoutCause(ctx, limit, errTimedOut)
	defer cancel()
	type outcome struct {
		res Res
		err error
	}
	done := make(chan outcome, 1) // the goroutine never blocks, even abandoned
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- outcome{err: &Failure{Reason: ReasonPanic, Err: fmt.Errorf("panic: %v", r)}}
			}
		}()
		res, err := fn(cctx, req)
		done <- outcome{res, err}
	}()
	select {
	case o := <-done:
		return o.res, o.err != nil && cctx.Err() != nil && ctx.Err() == nil, o.err
	case <-cctx.Done():
		return res, ctx.Err() == nil, context.Cause(cctx)
	}
}

// judge decides what one call of the engine comes to. callerErr is the
// caller's ctx.Err() after the call, expired whether the time limit passed
// first, err what the call returned and broken how its result breaks the
// contract. pass is an error handed back as it is, fail a failure that
// quarantines the engine; neither means the answer stands.
func judge(callerErr error, expired bool, err, broken error, limit time.Duration) (pass error, fail *Failure) {
	switch {
	case callerErr != nil:
		return callerErr, nil
	case err == nil && broken == nil:
		return nil, nil
	case err == nil:
		return nil, &Failure{Reason: ReasonInvalidOutput, Err: broken}
	case errors.Is(err, ErrClosed):
		return err, nil
	case expired:
		return nil, &Failure{Reason: ReasonTimeout, Err: fmt.Errorf("no answer within %v", limit)}
	}
	if f, ok := errors.AsType[*Failure](err); ok {
		return nil, &Failure{Reason: f.Reason, Err: f.Err, Stderr: f.Stderr}
	}
	return nil, &Failure{Reason: ReasonError, Err: err}
}

// quarantined reports whether the engine is quarantined, by the store when
// there is one and it answers.
func (g *Guard) quarantined(ctx context.Context) bool {
	g.mu.Lock()
	gen := g.gen
	g.mu.Unlock()
	var (
		stored Quarantine
		ok     bool
		err    error
	)
	if g.opts.Store != nil {
		stored, ok, err = g.opts.Store.Load(ctx, g.name)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.opts.Store != nil && g.gen == gen {
		g.local = reconcile(g.local, stored, ok, err)
	}
	return g.local.on
}

// reconcile is what this process holds after the store answered a read
// with (stored, ok, err): the store is the truth about a quarantine it holds
// or one that was saved and is gone (cleared elsewhere); a store that fails,
// or a quarantine it never got, leaves local as it is.
func reconcile(local held, stored Quarantine, ok bool, err error) held {
	switch {
	case err != nil:
		return local
	case ok:
		return held{q: stored, on: true, saved: true}
	case local.on && !local.saved:
		return local
	}
	return held{}
}

// record quarantines the engine for failure f of method m, resets it and
// reports the event.
func (g *Guard) record(ctx context.Context, m Method, f *Failure) {
	now := g.opts.Now()
	stderr := f.Stderr
	if t, ok := g.engine.(StderrTailer); ok && stderr == "" {
		stderr = t.StderrTail() // a process still running (a timeout); before Reset ends it
	}
	q := Quarantine{Engine: g.name, Method: m, Reason: f.Reason, Error: errorText(f.Err, stderr),
		Since: now, Last: now, Count: 1}
	var (
		stored   Quarantine
		storeErr error
	)
	if g.opts.Store != nil {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
		stored, storeErr = g.opts.Store.Record(sctx, q)
		cancel()
	}
	g.mu.Lock()
	if g.opts.Store != nil && storeErr == nil {
		g.local = held{q: stored, on: true, saved: true}
	} else {
		prev := g.local.q
		if !g.local.on {
			prev = Quarantine{}
		}
		g.local = held{q: prev.Merge(q), on: true}
	}
	g.gen++
	ev := QuarantineEvent{Method: m, Reason: f.Reason, Err: f.Err, Stderr: stderr, Quarantine: g.local.q, StoreErr: storeErr}
	g.mu.Unlock()

	if r, ok := g.engine.(Resetter); ok {
		r.Reset()
	}
	if g.opts.OnQuarantine != nil {
		g.opts.OnQuarantine(ev)
	}
}

// errorText is what a quarantine record says of err: its text, clipped,
// and the end of the engine's stderr, which is bounded already and is
// where a program says what went wrong.
func errorText(err error, stderr string) string {
	text := clip(err.Error(), maxErrorText)
	if stderr != "" {
		text += "; stderr: " + stderr
	}
	return text
}

// clip cuts s to at most n bytes on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
