package tui

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/muesli/termenv"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/tui/theme"
)

// program is Run on a runtime, with its input, screen and unsent text.
type program struct {
	keys           *io.PipeWriter
	screen, unsent agenttest.Buffer
	cancel         context.CancelFunc
	done           chan error // Run's result
}

func runProgram(t *testing.T, rt Runtime) *program {
	t.Helper()
	in, keys := io.Pipe()
	t.Cleanup(func() { keys.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	p := &program{keys: keys, cancel: cancel, done: make(chan error, 1)}
	go func() {
		p.done <- Run(ctx, rt, Options{Theme: theme.Plain(), Profile: termenv.Ascii, Input: in, Output: &p.screen, Unsent: &p.unsent})
	}()
	return p
}

func TestRunPrintsUnsentInputWhenCancelled(t *testing.T) {
	rt := newRuntime(t, nil)
	p := runProgram(t, rt)
	keys, screen, unsent, cancel, done := p.keys, &p.screen, &p.unsent, p.cancel, p.done
	if _, err := keys.Write([]byte("half a thought")); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(screen.String(), "half a thought") {
		if time.Now().After(deadline) {
			t.Fatalf("the typed text never showed:\n%s", screen.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Run returned %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after the context was cancelled")
	}
	if !strings.Contains(unsent.String(), "half a thought") {
		t.Fatalf("the unsent text was not printed: %q", unsent.String())
	}
}

// TestQueuedInputStaysSavedWhenTheProgramEnds: a signal (here, ctx
// cancelled) ends the program with items queued; they stay in the
// session's queue, to be sent when it is resumed, and the note says so.
func TestQueuedInputStaysSavedWhenTheProgramEnds(t *testing.T) {
	g := newGate("slow")
	rt := newRuntime(t, []agent.Tool{g}, agenttest.Reply().ToolCall("c1", "slow", `{}`).Stop(agent.StopReasonToolUse), reply("done"))
	p := runProgram(t, rt)
	if err := rt.Prompt(context.Background(), "start"); err != nil {
		t.Fatal(err)
	}
	<-g.started
	if _, _, err := rt.Steer(context.Background(), "steer me"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := rt.FollowUp(context.Background(), "follow me"); err != nil {
		t.Fatal(err)
	}
	p.cancel()
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after the context was cancelled")
	}
	unsent := p.unsent.String()
	if q := rt.State().Queue; len(q) != 2 {
		t.Fatalf("queue after the program ended: %+v, want both items kept", q)
	}
	if !strings.Contains(unsent, "2 queued inputs stay saved in session") || strings.Contains(unsent, "steer me") {
		t.Fatalf("the note: %q", unsent)
	}
}
