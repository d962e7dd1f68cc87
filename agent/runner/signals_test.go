package runner

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

func TestExitStatus(t *testing.T) {
	tests := []struct {
		sig  os.Signal
		want int
	}{
		{syscall.SIGINT, 130},
		{os.Interrupt, 130},
		{syscall.SIGHUP, 129},
		{syscall.SIGTERM, 143},
		{unnumbered{}, 130},
	}
	for _, tt := range tests {
		if got := ExitStatus(tt.sig); got != tt.want {
			t.Errorf("ExitStatus(%v) = %d, want %d", tt.sig, got, tt.want)
		}
	}
}

// unnumbered is a signal that is not a syscall.Signal.
type unnumbered struct{}

func (unnumbered) String() string { return "unnumbered" }
func (unnumbered) Signal()        {}

// TestSignalsCancelWithTheReason: the first quit signal is kept and cancels
// the context with the reason a run aborted by it records.
func TestSignalsCancelWithTheReason(t *testing.T) {
	s := CatchSignals()
	defer s.Stop()
	signalSelf(t, syscall.SIGHUP)
	waitCancelled(t, s.Context())
	if got := s.Received(); got != syscall.SIGHUP {
		t.Errorf("Received() = %v, want SIGHUP", got)
	}
	if got, want := context.Cause(s.Context()).Error(), AbortSignal(syscall.SIGHUP); got != want {
		t.Errorf("cause %q, want %q", got, want)
	}
}

// TestSignalsStopWithoutASignal: Stop ends the context as a plain
// cancellation, and nothing was received.
func TestSignalsStopWithoutASignal(t *testing.T) {
	s := CatchSignals()
	if s.Context().Err() != nil {
		t.Fatal("cancelled before anything happened")
	}
	s.Stop()
	if s.Received() != nil {
		t.Errorf("Received() = %v, want nil", s.Received())
	}
	if cause := context.Cause(s.Context()); cause != context.Canceled {
		t.Errorf("cause %v, want context.Canceled", cause)
	}
}

// TestSignalsAbortTheAttachedRun: a signal aborts the active run with the
// signal as its reason before the context ends.
func TestSignalsAbortTheAttachedRun(t *testing.T) {
	store := openStore(t, t.TempDir())
	defer store.Close()
	release := make(chan struct{})
	defer close(release)
	rt := newRuntime(t, store, agenttest.NewScript(agenttest.Reply().Wait(release).Text("late").Stop(agent.StopReasonStop)), Options{})
	s := CatchSignals()
	defer s.Stop()
	s.Attach(rt)
	if err := rt.Prompt(context.Background(), "work"); err != nil {
		t.Fatal(err)
	}
	signalSelf(t, syscall.SIGTERM)
	waitCancelled(t, s.Context())
	waitIdle(t, rt)
	msgs := rt.State().Messages
	last := msgs[len(msgs)-1]
	if last.StopReason != agent.StopReasonAborted || last.ErrorMessage != AbortSignal(syscall.SIGTERM) {
		t.Errorf("last message stopped %q with %q; want aborted with %q", last.StopReason, last.ErrorMessage, AbortSignal(syscall.SIGTERM))
	}
	if err := rt.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// signalSelf sends sig to the test's own process, which CatchSignals
// catches.
func signalSelf(t *testing.T, sig os.Signal) {
	t.Helper()
	p, err := os.FindProcess(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Signal(sig); err != nil {
		t.Fatal(err)
	}
}

func waitCancelled(t *testing.T, ctx context.Context) {
	t.Helper()
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the context was not cancelled")
	}
}
