package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/steer-tui/steer/agent/runner"
)

// quitWait bounds the orderly part of a quit: the aborted run's tools
// killed and its marker saved, the pending saves written. Past it steer
// exits anyway; SQLite keeps the database whole.
const quitWait = 5 * time.Second

// quitSignals end steer in an orderly way in every mode: SIGINT (Ctrl+C
// outside the TUI), SIGTERM (kill, systemd, a supervisor) and SIGHUP (the
// terminal closed, the ssh connection dropped).
var quitSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// signals turns the first quit signal into an abort of the active run with
// the signal as its reason, then a cancelled context whose cause says the
// same; main then waits for the run to end (bounded), closes the store and
// exits with 128 + the signal's number. Later signals are ignored while that
// happens: the wait is bounded.
type signals struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	ch     chan os.Signal
	done   chan struct{}

	mu  sync.Mutex
	rt  *runner.Runtime
	sig os.Signal
}

func catchSignals() *signals {
	ctx, cancel := context.WithCancelCause(context.Background())
	s := &signals{ctx: ctx, cancel: cancel, ch: make(chan os.Signal, 1), done: make(chan struct{})}
	signal.Notify(s.ch, quitSignals...)
	go s.wait()
	return s
}

func (s *signals) wait() {
	select {
	case sig := <-s.ch:
		reason := runner.AbortSignal(sig)
		s.mu.Lock()
		s.sig = sig
		rt := s.rt
		s.mu.Unlock()
		// The abort comes first: the front end may abort too as its
		// context ends, and the first reason given to a run is the one
		// it keeps.
		if rt != nil {
			rt.AbortWith(reason)
		}
		s.cancel(errors.New(reason))
	case <-s.done:
	}
}

// attach makes a signal abort rt's active run.
func (s *signals) attach(rt *runner.Runtime) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rt = rt
	if s.sig != nil {
		rt.AbortWith(runner.AbortSignal(s.sig))
	}
}

// received returns the signal that arrived, or nil.
func (s *signals) received() os.Signal {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sig
}

// stop stops catching; call it once everything is closed.
func (s *signals) stop() {
	signal.Stop(s.ch)
	close(s.done)
	s.cancel(context.Canceled)
}

// exitStatus is the shell's convention for death by sig: 128 + its number.
func exitStatus(sig os.Signal) int {
	if n, ok := sig.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return exitCancelled
}
