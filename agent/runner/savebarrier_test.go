package runner

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/persistence/persisttest"
)

// probeTool records, when it runs, how many of the runtime's saves were
// still waiting: the ones of the message that called it and of the input
// before it among them, unless the tool waited for them.
type probeTool struct {
	rt    **Runtime
	found chan uint64
}

func (probeTool) Spec() agent.ToolSpec {
	return agent.ToolSpec{Name: "probe", Description: "a test tool", Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (p probeTool) Execute(context.Context, string, map[string]any, agent.ToolUpdate) (agent.ToolResult, error) {
	s := (*p.rt).writes.saver
	s.mu.Lock()
	waiting := s.handed - s.settled
	s.mu.Unlock()
	p.found <- waiting
	return agent.TextResult("probed"), nil
}

// TestAToolRunsOnlyOnceItsCallIsSaved: with the saves held up (another
// process holds the database's write lock), a tool call waits until the
// message that made it, and the input that led to it, are saved; a crash
// in between would otherwise leave the input pending, to run again.
func TestAToolRunsOnlyOnceItsCallIsSaved(t *testing.T) {
	store := openStore(t, t.TempDir())
	t.Cleanup(func() { store.Close() })
	release := make(chan struct{})
	var rt *Runtime
	probe := probeTool{rt: &rt, found: make(chan uint64, 1)}
	rt = newRuntime(t, store, agenttest.NewScript(
		agenttest.Reply().Text("one").Stop(agent.StopReasonStop),
		agenttest.Reply().Wait(release).ToolCall("c1", "probe", `{}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text("done").Stop(agent.StopReasonStop),
	), Options{Tools: []agent.Tool{probe}, Approval: "auto"})
	if err := rt.Prompt(context.Background(), "first"); err != nil { // the session and its claim, before the lock
		t.Fatal(err)
	}
	waitIdle(t, rt)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	jobs := handedJobs(rt.writes.saver)
	if err := rt.Prompt(context.Background(), "second"); err != nil {
		t.Fatal(err)
	}
	unlock := persisttest.HoldWriteLock(t, store.Path())
	waitHandedJobs(ctx, t, rt.writes.saver, jobs+2) // the run's start and the question; the answer waits for release
	close(release)
	waitHandedJobs(ctx, t, rt.writes.saver, jobs+3) // the call's message, whose save waits on the lock
	unlock()
	select {
	case waiting := <-probe.found:
		if waiting != 0 {
			t.Fatalf("the tool ran with %d saves still waiting (the input's, its call's); want none", waiting)
		}
	case <-ctx.Done():
		t.Fatal("the tool never ran")
	}
	waitIdle(t, rt)
	pending, err := store.PendingInputs(ctx, rt.SessionID())
	if err != nil || len(pending) != 0 {
		t.Fatalf("pending inputs after the run: %v, %v", pending, err)
	}
}

// TestACallIDUsedTwiceWaitsForItsOwnMessage: a provider that numbers calls
// per response gives two calls of one run the same id; the second still
// waits for its own message, not the first's.
func TestACallIDUsedTwiceWaitsForItsOwnMessage(t *testing.T) {
	b := newSaveBarrier()
	call := agent.Message{Role: agent.RoleAssistant, Content: []agent.Content{agent.ToolCall("c1", "probe", nil)}}
	b.note(call)
	if err := b.wait(context.Background(), "c1"); err != nil {
		t.Fatalf("the first call: %v", err)
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if err := b.wait(done, "c1"); err == nil {
		t.Fatal("the second call of id c1 went ahead on the first one's message")
	}
	waited := make(chan error)
	go func() { waited <- b.wait(context.Background(), "c1") }()
	b.note(call)
	if err := <-waited; err != nil {
		t.Fatalf("the second call after its own message: %v", err)
	}
	if len(b.handed) != 0 {
		t.Fatalf("handed = %v after both calls ran, want it empty", b.handed)
	}
}

// handedJobs is how many writes the saver has been handed.
func handedJobs(s *saver) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.handed
}

// waitHandedJobs waits until the saver has been handed n writes. The saver
// announces only what it saved, so this polls.
func waitHandedJobs(ctx context.Context, t *testing.T, s *saver, n uint64) {
	t.Helper()
	for handedJobs(s) < n {
		select {
		case <-ctx.Done():
			t.Fatalf("the saver was handed %d writes, want %d", handedJobs(s), n)
		case <-time.After(time.Millisecond):
		}
	}
}
