package engines

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// closeGrace is how long Close lets an engine exit by itself once its input
// is closed, before its process group is killed.
const closeGrace = time.Second

// ErrClosed is returned by the calls of an External after Close.
var ErrClosed = errors.New("the context engine is closed")

// errReset fails the requests still waiting when an engine is reset.
var errReset = &Failure{Reason: ReasonCrash, Err: errors.New("the engine was stopped after a failure")}

// ExternalConfig is an external engine: a program speaking the protocol of
// assets/context-engines.md on its stdin and stdout.
type ExternalConfig struct {
	// Name is the name the engine is configured under (contextEngines.NAME).
	Name string
	// Command is the program and its arguments (contextEngines.NAME.command);
	// no shell is involved.
	Command []string
	// Dir is its working directory; "" is steer's.
	Dir string
	// Env is its environment; nil is steer's.
	Env []string
	// Stderr receives what it writes on stderr, typically the log; nil
	// discards it. It is never steer's own stdout or stderr.
	Stderr io.Writer
}

// External is an engine that is a program. Nothing starts until the first
// call; then the process is started, handshaken (an info request carrying
// ProtocolVersion) and kept for the calls that follow, several of which may
// be in flight at once, matched to their answers by id. A process that
// ends, or writes what is not an answer, fails the calls waiting on it
// (ReasonCrash, ReasonInvalidOutput) and the next call starts a fresh one.
// An answer that breaks only its own call's contract (an error, a result
// that does not parse) fails that call alone.
//
// Reset kills the process (the Guard resets an engine it quarantines);
// Close ends it for good. The process is the leader of its own process
// group, and both kill the whole group, so nothing it started outlives it.
// It never inherits steer's stdout or stderr.
type External struct {
	cfg ExternalConfig
	// starting is a one-slot lock held while a process starts, so that
	// concurrent first calls start one process, not several.
	starting chan struct{}
	ids      atomic.Uint64

	mu     sync.Mutex
	proc   *process
	closed bool
	// last is the process started last, handshaken or not: a call that
	// timed out quotes its stderr (StderrTail).
	last *process
}

// NewExternal returns the engine cfg describes, without starting it.
func NewExternal(cfg ExternalConfig) *External {
	return &External{cfg: cfg, starting: make(chan struct{}, 1)}
}

var (
	_ Engine       = (*External)(nil)
	_ Resetter     = (*External)(nil)
	_ StderrTailer = (*External)(nil)
	_ io.Closer    = (*External)(nil)
)

// Info implements Engine: the name it is configured under, and the version
// and ownsCompaction it answered the handshake with.
func (e *External) Info(ctx context.Context) (Info, error) {
	p, err := e.running(ctx)
	if err != nil {
		return Info{}, err
	}
	return p.info, nil
}

// Bootstrap implements Engine.
func (e *External) Bootstrap(ctx context.Context, req BootstrapRequest) error {
	_, err := roundTrip[json.RawMessage](ctx, e, MethodBootstrap, req)
	return err
}

// Ingest implements Engine.
func (e *External) Ingest(ctx context.Context, req IngestRequest) error {
	_, err := roundTrip[json.RawMessage](ctx, e, MethodIngest, req)
	return err
}

// Assemble implements Engine.
func (e *External) Assemble(ctx context.Context, req AssembleRequest) (AssembleResult, error) {
	return roundTrip[AssembleResult](ctx, e, MethodAssemble, req)
}

// Compact implements Engine.
func (e *External) Compact(ctx context.Context, req CompactRequest) (CompactResult, error) {
	return roundTrip[CompactResult](ctx, e, MethodCompact, req)
}

// AfterTurn implements Engine.
func (e *External) AfterTurn(ctx context.Context, req AfterTurnRequest) error {
	_, err := roundTrip[json.RawMessage](ctx, e, MethodAfterTurn, req)
	return err
}

// Reset kills the process, failing the calls waiting on it; the next call
// starts a fresh one.
func (e *External) Reset() {
	e.mu.Lock()
	p := e.proc
	e.proc = nil
	e.mu.Unlock()
	if p != nil {
		p.kill(errReset)
	}
}

// StderrTail implements StderrTailer: the last lines the process started
// last wrote on stderr ("" before the first). A process that ended quotes
// its own in the Failure it ended with; this is for a call that timed out.
func (e *External) StderrTail() string {
	e.mu.Lock()
	p := e.last
	e.mu.Unlock()
	if p == nil {
		return ""
	}
	return p.tail.String()
}

// Close ends the engine for good: its input is closed, it has closeGrace to
// exit, then its process group is killed. Calls after Close fail with
// ErrClosed. Close waits (bounded) until the process is reaped; it is safe
// to call more than once.
func (e *External) Close() error {
	e.mu.Lock()
	p := e.proc
	e.proc, e.closed = nil, true
	e.mu.Unlock()
	if p != nil {
		p.stop(ErrClosed, closeGrace)
	}
	return nil
}

// roundTrip sends one request of method m and parses its result as a T.
func roundTrip[T any](ctx context.Context, e *External, m Method, params any) (T, error) {
	var zero T
	p, err := e.running(ctx)
	if err != nil {
		return zero, err
	}
	raw, err := p.request(ctx, e.ids.Add(1), m, params)
	if err != nil {
		return zero, err
	}
	return decodeResult[T](m, raw)
}

// running returns the live process, starting and handshaking one if there
// is none.
func (e *External) running(ctx context.Context) (*process, error) {
	select {
	case e.starting <- struct{}{}:
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
	defer func() { <-e.starting }()
	e.mu.Lock()
	p, closed := e.proc, e.closed
	e.mu.Unlock()
	switch {
	case closed:
		return nil, ErrClosed
	case p != nil && p.ended() == nil:
		return p, nil
	}

	p, err := start(e.cfg)
	if err != nil {
		return nil, &Failure{Reason: ReasonCrash, Err: fmt.Errorf("could not start %q: %w", e.cfg.Command, err)}
	}
	e.mu.Lock()
	e.last = p
	e.mu.Unlock()
	raw, err := p.request(ctx, e.ids.Add(1), MethodInfo, infoParams{Protocol: ProtocolVersion, Engine: e.cfg.Name})
	var info infoResult
	if err == nil {
		info, err = decodeResult[infoResult](MethodInfo, raw)
	}
	if err != nil {
		p.kill(err)
		return nil, err
	}
	p.info = Info{Name: e.cfg.Name, Version: info.Version, OwnsCompaction: info.OwnsCompaction}

	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		p.kill(ErrClosed)
		return nil, ErrClosed
	}
	e.proc = p
	e.mu.Unlock()
	return p, nil
}
