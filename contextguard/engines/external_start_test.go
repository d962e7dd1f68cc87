//go:build unix

package engines

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// gatedEngine is an External running the "gated" helper, and the pid of
// the process it started first (its handshake held until openGate).
func gatedEngine(t *testing.T) (e *External, stderr *stderrLines, gate string) {
	t.Helper()
	gate = filepath.Join(t.TempDir(), "gate")
	if err := syscall.Mkfifo(gate, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, stderr := helperConfig(t, "gated")
	cfg.Env = append(cfg.Env, helperGateEnv+"="+gate)
	e = NewExternal(cfg)
	t.Cleanup(func() { e.Close() })
	return e, stderr, gate
}

// openGate lets the gated helper answer: opening the FIFO for writing
// waits until a helper has it open for reading, so it goes on its own
// goroutine, which an engine that never opens it leaves waiting.
func openGate(t *testing.T, gate string) {
	go func() {
		if err := os.WriteFile(gate, nil, 0o600); err != nil {
			t.Error(err)
		}
	}()
}

// within is what ch delivers, failing the test after answerBound.
func within(t *testing.T, ch <-chan error, what string) error {
	t.Helper()
	select {
	case err := <-ch:
		return err
	case <-time.After(answerBound):
		t.Fatalf("%s never returned", what)
		return nil
	}
}

// firstPid waits for the gated helper's first process and returns its pid.
func firstPid(t *testing.T, stderr *stderrLines) int {
	t.Helper()
	var pid int
	if _, err := fmt.Sscanf(stderr.await(t, "gated pid "), "gated pid %d", &pid); err != nil {
		t.Fatal(err)
	}
	return pid
}

// TestExternalAStartOutlivesTheCallThatBeganIt: a call that gives up while
// the process starts leaves the start under way; the next call is served
// by that same process, not by a second one started in its place (calls
// timing out together on a hung engine would leave the second with no
// stderr to quote and nothing to show for it).
func TestExternalAStartOutlivesTheCallThatBeganIt(t *testing.T) {
	e, stderr, gate := gatedEngine(t)
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() {
		_, err := e.Info(ctx)
		first <- err
	}()
	pid := firstPid(t, stderr)
	cancel()
	if err := within(t, first, "the call that gave up"); !errors.Is(err, context.Canceled) {
		t.Fatalf("the call that gave up: %v, want its cancellation", err)
	}

	second := make(chan error, 1)
	go func() {
		res, err := e.Assemble(context.Background(), AssembleRequest{SystemPrompt: "second", Messages: transcript()})
		if err == nil && res.SystemPromptAddition != "second" {
			err = fmt.Errorf("answered %q", res.SystemPromptAddition)
		}
		second <- err
	}()
	openGate(t, gate)
	if err := within(t, second, "the next call"); err != nil {
		t.Fatalf("the next call: %v", err)
	}
	e.mu.Lock()
	served := e.proc.cmd.Process.Pid
	e.mu.Unlock()
	if served != pid {
		t.Errorf("served by process %d, want %d, the one whose start the first call began", served, pid)
	}
}

// TestExternalResetAndCloseEndAStart: Reset or Close while the process
// starts kills it and fails the calls waiting for it, with why.
func TestExternalResetAndCloseEndAStart(t *testing.T) {
	cases := []struct {
		name string
		end  func(*External)
		want error
	}{
		{"reset", (*External).Reset, errReset.Err},
		{"close", func(e *External) { e.Close() }, ErrClosed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e, stderr, _ := gatedEngine(t)
			waiting := make(chan error, 1)
			go func() {
				_, err := e.Info(context.Background())
				waiting <- err
			}()
			firstPid(t, stderr)
			e.mu.Lock()
			p := e.last
			e.mu.Unlock()
			tc.end(e)
			if err := within(t, waiting, "the waiting call"); !errors.Is(err, tc.want) {
				t.Errorf("the waiting call: %v, want %v", err, tc.want)
			}
			select {
			case <-p.exited:
			case <-time.After(answerBound):
				t.Fatal("the starting process was not killed")
			}
		})
	}
}
