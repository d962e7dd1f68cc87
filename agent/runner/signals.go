package runner

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// QuitWait bounds the orderly part of a quit: the aborted run's tools
// killed and its marker saved, the pending saves written. Past it steer
// exits anyway; SQLite keeps the database whole.
const QuitWait = 5 * time.Second

// QuitSignals end steer in an orderly way in every mode: SIGINT (Ctrl+C
// outside the TUI), SIGTERM (kill, systemd, a supervisor) and SIGHUP (the
// terminal closed, the ssh connection dropped).
var QuitSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// Signals turns the first quit signal into an abort of the active run with
// the signal as its reason (AbortSignal), then a cancelled Context whose
// cause says the same. The caller then waits for the run to end (bounded
// by QuitWait), closes the store and exits with ExitStatus. Later signals
// are ignored while that happens: the wait is bounded.
//
// The abort comes before the cancellation because a front end may abort
// too as its context ends, and the first reason given to a run is the one
// it keeps.
type Signals struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	ch     chan os.Signal
	done   chan struct{}

	mu  sync.Mutex
	rt  Aborter
	sig os.Signal
}

// CatchSignals starts catching QuitSignals; call Stop once everything is
// closed. A signal that arrives before Attach is kept, and Attach aborts
// with it.
func CatchSignals() *Signals {
	ctx, cancel := context.WithCancelCause(context.Background())
	s := &Signals{ctx: ctx, cancel: cancel, ch: make(chan os.Signal, 1), done: make(chan struct{})}
	signal.Notify(s.ch, QuitSignals...)
	go s.wait()
	return s
}

func (s *Signals) wait() {
	select {
	case sig := <-s.ch:
		reason := AbortSignal(sig)
		s.mu.Lock()
		s.sig = sig
		rt := s.rt
		s.mu.Unlock()
		if rt != nil {
			rt.AbortWith(reason)
		}
		s.cancel(errors.New(reason))
	case <-s.done:
	}
}

// Context is cancelled by the first quit signal, with AbortSignal's reason
// as its cause, or by Stop, with context.Canceled.
func (s *Signals) Context() context.Context { return s.ctx }

// Aborter is what a signal aborts: a Runtime's active run, or every run of
// a Host.
type Aborter interface{ AbortWith(reason string) }

// Attach makes a signal abort rt's runs; a signal that arrived already
// aborts them now.
func (s *Signals) Attach(rt Aborter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rt = rt
	if s.sig != nil {
		rt.AbortWith(AbortSignal(s.sig))
	}
}

// Received returns the quit signal that arrived, or nil.
func (s *Signals) Received() os.Signal {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sig
}

// Stop stops catching; call it once, after everything is closed.
func (s *Signals) Stop() {
	signal.Stop(s.ch)
	close(s.done)
	s.cancel(context.Canceled)
}

// ExitStatus is the shell's convention for death by sig: 128 + its number
// (130 for SIGINT, 129 for SIGHUP, 143 for SIGTERM). A signal without a
// number counts as SIGINT.
func ExitStatus(sig os.Signal) int {
	if n, ok := sig.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 128 + int(syscall.SIGINT)
}
