package runner

import (
	"context"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// TestSubmitKinds: Submit saves and delivers collected inputs and
// interrupts, which the database stores as follow-ups and steering; an
// interrupt aborts the streaming run and is answered in the next, and
// inputs collected meanwhile are answered together.
func TestSubmitKinds(t *testing.T) {
	store := openStore(t, t.TempDir())
	release := make(chan struct{})
	script := agenttest.NewScript(
		agenttest.Reply().Text("working").Hang(),
		agenttest.Reply().Wait(release).Text("on it").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("both").Stop(agent.StopReasonStop),
	)
	rt := newRuntime(t, store, script, Options{})
	streaming := make(chan struct{})
	var started bool
	rt.Subscribe(func(ev agent.Event) {
		if _, ok := ev.(agent.MessageUpdate); ok && !started {
			started = true
			close(streaming)
		}
	})
	if err := rt.Prompt("start"); err != nil {
		t.Fatal(err)
	}
	within(t, streaming, "streaming")
	if _, queued, err := rt.Submit(agent.QueueInterrupt, "do this instead"); err != nil || !queued {
		t.Fatalf("Submit(interrupt) = queued %v, %v", queued, err)
	}
	for _, text := range []string{"a", "b"} {
		if _, queued, err := rt.Submit(agent.QueueCollect, text); err != nil || !queued {
			t.Fatalf("Submit(collect %s) = queued %v, %v", text, queued, err)
		}
	}
	close(release)
	waitIdle(t, rt)
	var got []string
	for _, m := range rt.State().Messages {
		got = append(got, m.TextContent())
	}
	want := []string{"start", "working", "do this instead", "on it", "a", "b", "both"}
	if len(got) != len(want) {
		t.Fatalf("transcript %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("transcript %q, want %q", got, want)
		}
	}
	if pending, err := store.PendingInputs(context.Background(), rt.SessionID()); err != nil || len(pending) != 0 {
		t.Fatalf("pending inputs left: %+v, %v", pending, err)
	}
	if _, _, err := rt.Submit("shout", "x"); err == nil {
		t.Fatal("Submit took an unknown kind")
	}
}
