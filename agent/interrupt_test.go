package agent_test

import (
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// TestCollectAnswersABurstOnce: collected inputs do not steer the run; when
// it would stop they come as one turn, however the follow-up mode takes
// follow-ups one at a time.
func TestCollectAnswersABurstOnce(t *testing.T) {
	release := make(chan struct{})
	f := newFixture(t, agenttest.NewScript(
		agenttest.Reply().Wait(release).Text("r0").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("all three").Stop(agent.StopReasonStop),
	))
	if err := f.agent.Prompt("start"); err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"a", "b", "c"} {
		if _, queued := f.agent.Deliver(agent.QueueItem{Kind: agent.QueueCollect, Text: text}); !queued {
			t.Fatalf("%s was not queued behind the run", text)
		}
	}
	close(release)
	f.wait(t)
	if n := len(f.script.Requests()); n != 2 {
		t.Fatalf("%d requests, want 2: the collected inputs answered once", n)
	}
	equalTraces(t, texts(f.agent.State().Messages), []string{"start", "r0", "a", "b", "c", "all three"})
	if starts := countTrace(f.rec.Traces(false), "agent_start"); starts != 1 {
		t.Errorf("%d agent_start events, want one run", starts)
	}
}

// TestInterruptAbortsTheRun: an interrupt delivered to a streaming run
// aborts it (its marker says so) and starts the next run with itself.
func TestInterruptAbortsTheRun(t *testing.T) {
	f := newFixture(t, agenttest.NewScript(
		agenttest.Reply().Text("thinking").Hang(),
		agenttest.Reply().Text("on it").Stop(agent.StopReasonStop),
	))
	interruptWhileStreaming(t, f)
	f.wait(t)
	msgs := f.agent.State().Messages
	equalTraces(t, texts(msgs), []string{"start", "thinking", "do this instead", "on it"})
	if m := msgs[1]; m.StopReason != agent.StopReasonAborted || m.ErrorMessage != agent.InterruptedMessage {
		t.Errorf("the interrupted run ends with %s %q, want aborted %q", m.StopReason, m.ErrorMessage, agent.InterruptedMessage)
	}
	if q := f.agent.Queue(); len(q) != 0 {
		t.Errorf("queue after the interrupt = %+v", q)
	}
	if starts := countTrace(f.rec.Traces(false), "agent_start"); starts != 2 {
		t.Errorf("%d agent_start events, want the aborted run and the interrupt's", starts)
	}
}

// interruptWhileStreaming prompts "start" and, once the answer streams,
// delivers the interrupt "do this instead".
func interruptWhileStreaming(t *testing.T, f *fixture) {
	t.Helper()
	streaming := waitForEvent(f.agent, "message_update text_delta")
	if err := f.agent.Prompt("start"); err != nil {
		t.Fatal(err)
	}
	within(t, streaming, "streaming")
	if _, queued := f.agent.Deliver(agent.QueueItem{Kind: agent.QueueInterrupt, Text: "do this instead"}); !queued {
		t.Fatal("the interrupt was not queued for the run it aborts")
	}
}

// TestAnAbortAfterAnInterruptStops: Esc while an interrupt is aborting
// the run stops there: the interrupt starts no run and stays queued.
func TestAnAbortAfterAnInterruptStops(t *testing.T) {
	f := newFixture(t, agenttest.NewScript(
		agenttest.Reply().Text("thinking").Hang(),
		agenttest.Reply().Text("on it").Stop(agent.StopReasonStop),
	))
	aborted := false
	f.agent.Subscribe(func(ev agent.Event) { // on the run's goroutine: before it decides what runs next
		if _, end := ev.(agent.AgentEnd); end && !aborted {
			aborted = true
			f.agent.Abort()
		}
	})
	interruptWhileStreaming(t, f)
	f.wait(t)
	if starts := countTrace(f.rec.Traces(false), "agent_start"); starts != 1 {
		t.Errorf("%d agent_start events, want the aborted run's alone", starts)
	}
	if q := f.agent.Queue(); len(q) != 1 || q[0].Text != "do this instead" {
		t.Errorf("queue after the abort = %+v, want the interrupt kept", q)
	}
}

// TestInterruptWhileIdleGoesFirst: an interrupt delivered to an idle agent
// starts a run with itself, ahead of what was already queued.
func TestInterruptWhileIdleGoesFirst(t *testing.T) {
	f := newFixture(t, agenttest.NewScript(
		agenttest.Reply().Text("r1").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("r2").Stop(agent.StopReasonStop),
	))
	f.agent.Enqueue(agent.QueueItem{Kind: agent.QueueSteer, Text: "old"})
	if _, queued := f.agent.Deliver(agent.QueueItem{Kind: agent.QueueInterrupt, Text: "new"}); queued {
		t.Fatal("the interrupt was queued on an idle agent")
	}
	f.wait(t)
	equalTraces(t, texts(f.agent.State().Messages), []string{"new", "r1", "old", "r2"})
}
