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
// A start is shared: the calls that come while a process starts wait for
// it, each under its own context, and a call that gives up does not end it;
// a start that fails fails them all, and only a call after it starts again.
// So calls that time out together on a hung engine leave one process, whose
// stderr they all quote, never a second started as the first is given up.
//
// Reset kills the process, or the one starting (the Guard resets an engine
// it quarantines); Close ends it for good. The process is the leader of its
// own process group, and both kill the whole group, so nothing it started
// outlives it. It never inherits steer's stdout or stderr.
type External struct {
	cfg ExternalConfig
	ids atomic.Uint64

	mu     sync.Mutex
	proc   *process
	starts *startup // the start under way, nil when none
	closed bool
	// last is the process started last, handshaken or not: a call that
	// timed out quotes its stderr (StderrTail).
	last *process
}

// startup is one start of the engine's process: done closes when it is
// handshaken (proc) or has failed (err). Its fields are guarded by the
// External's mu.
type startup struct {
	done chan struct{}
	proc *process
	err  error
	// stopped is why Reset or Close gave the start up; the process, once
	// there, is ended with it.
	stopped error
}

// NewExternal returns the engine cfg describes, without starting it.
func NewExternal(cfg ExternalConfig) *External {
	return &External{cfg: cfg}
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

// Reset kills the process, or the one starting, failing the calls waiting
// on it; the next call starts a fresh one.
func (e *External) Reset() {
	e.mu.Lock()
	p, starting := e.proc, e.giveUpStart(errReset)
	e.proc = nil
	e.mu.Unlock()
	for _, p := range []*process{p, starting} {
		if p != nil {
			p.kill(errReset)
		}
	}
}

// giveUpStart detaches the start under way, if any, marking it stopped by
// err, and returns its process if it has one yet (the start ends one that
// comes later itself). Called with mu held.
func (e *External) giveUpStart(err error) *process {
	s := e.starts
	if s == nil {
		return nil
	}
	e.starts = nil
	s.stopped = err
	return s.proc
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
	p, s := e.proc, e.starts
	starting := e.giveUpStart(ErrClosed)
	e.proc, e.closed = nil, true
	e.mu.Unlock()
	for _, p := range []*process{p, starting} {
		if p != nil {
			p.stop(ErrClosed, closeGrace)
		}
	}
	if s != nil && starting == nil {
		// Its process is not there yet: the start stops it once it is.
		t := time.NewTimer(reapWait)
		defer t.Stop()
		select {
		case <-s.done:
		case <-t.C:
		}
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

// running returns the live process, starting and handshaking one, or
// waiting for the start under way, if there is none.
func (e *External) running(ctx context.Context) (*process, error) {
	e.mu.Lock()
	p, s, closed := e.proc, e.starts, e.closed
	switch {
	case closed:
		e.mu.Unlock()
		return nil, ErrClosed
	case p != nil && p.ended() == nil:
		e.mu.Unlock()
		return p, nil
	case s == nil:
		s = &startup{done: make(chan struct{})}
		e.starts = s
		go e.start(s)
	}
	e.mu.Unlock()
	select {
	case <-s.done:
		return s.proc, s.err
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// start starts and handshakes s's process, under no caller's context: it
// ends when the engine answers, fails, or Reset or Close stop it.
func (e *External) start(s *startup) {
	p, err := start(e.cfg)
	if err != nil {
		e.finish(s, nil, &Failure{Reason: ReasonCrash, Err: fmt.Errorf("could not start %q: %w", e.cfg.Command, err)})
		return
	}
	e.mu.Lock()
	stopped := s.stopped
	if stopped == nil {
		s.proc, e.last = p, p
	}
	e.mu.Unlock()
	if stopped != nil {
		p.stop(stopped, 0)
		e.finish(s, nil, stopped)
		return
	}
	raw, err := p.request(context.Background(), e.ids.Add(1), MethodInfo, infoParams{Protocol: ProtocolVersion, Engine: e.cfg.Name})
	var info infoResult
	if err == nil {
		info, err = decodeResult[infoResult](MethodInfo, raw)
	}
	if err != nil {
		p.kill(err)
		e.finish(s, nil, err)
		return
	}
	p.info = Info{Name: e.cfg.Name, Version: info.Version, OwnsCompaction: info.OwnsCompaction}
	e.finish(s, p, nil)
}

// finish ends start s with its handshaken process p, or err. A start that
// Reset or Close gave up meanwhile keeps no process (they ended the one it
// had) and fails with why.
func (e *External) finish(s *startup, p *process, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.starts == s {
		e.starts = nil
	}
	if err == nil && s.stopped != nil {
		err = s.stopped
	}
	s.proc, s.err = nil, err
	if err == nil {
		e.proc, s.proc = p, p
	}
	close(s.done)
}
