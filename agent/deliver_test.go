package agent_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// deliverStressRounds is how many prompt-then-deliver rounds the stress test
// plays: the stranded-input race showed 5 times in 20,000.
const deliverStressRounds = 20_000

func TestDeliverAsTheRunEndsIsNotStranded(t *testing.T) {
	release := make(chan struct{})
	f := newFixture(t, agenttest.NewScript(
		agenttest.Reply().Wait(release).Text("first").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("second").Stop(agent.StopReasonStop),
	))
	decided, proceed := make(chan struct{}), make(chan struct{})
	agent.SetDeliverHook(f.agent, func() {
		close(decided)
		<-proceed
	})
	requested := waitForEvent(f.agent, "message_start assistant stop")
	if err := f.agent.Prompt("start"); err != nil {
		t.Fatal(err)
	}
	within(t, requested, "the first request")
	delivered := make(chan struct{})
	go func() {
		f.agent.Deliver(agent.QueueItem{Kind: agent.QueueFollowUp, Text: "late"})
		close(delivered)
	}()
	within(t, decided, "Deliver to decide to queue")
	// The run ends while Deliver is past its decision.
	close(release)
	f.wait(t)
	close(proceed)
	within(t, delivered, "Deliver to return")
	f.wait(t)
	if got := strings.Join(texts(f.agent.State().Messages), "|"); got != "start|first|late|second" {
		t.Fatalf("messages = %s, want the late input answered", got)
	}
	if q := f.agent.Queue(); len(q) != 0 {
		t.Fatalf("queue = %+v, want nothing stranded", q)
	}
}

// instantReply answers every request with "ok" before returning the stream.
func instantReply(ctx context.Context, model agent.Model, _ agent.LLMContext, _ agent.StreamOptions) *agent.AssistantStream {
	stream := agent.NewAssistantStream()
	w := agent.NewStreamWriter(ctx, stream, model, agenttest.Epoch)
	w.Start()
	w.TextDelta("ok")
	w.Finish(agent.StopReasonStop)
	return stream
}

func TestDeliverRightAfterPromptIsAlwaysAnswered(t *testing.T) {
	ids := 0
	for round := range deliverStressRounds {
		a := agent.New(agent.Config{
			Model: agenttest.Model, Stream: instantReply, Now: agenttest.Clock,
			NewItemID: func() string { ids++; return fmt.Sprint("item", ids) },
		})
		kind := agent.QueueSteer
		if round%2 == 1 {
			kind = agent.QueueFollowUp
		}
		if err := a.Prompt("start"); err != nil {
			t.Fatal(err)
		}
		a.Deliver(agent.QueueItem{Kind: kind, Text: "late"})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := a.WaitForIdle(ctx)
		cancel()
		if err != nil {
			t.Fatalf("round %d: the agent did not become idle: %v", round, err)
		}
		if !answered(a.State().Messages, "late") {
			t.Fatalf("round %d (%s): messages = %v, queue = %+v; want the delivered input answered",
				round, kind, texts(a.State().Messages), a.Queue())
		}
	}
}

// answered reports whether a user message of text is followed by a response.
func answered(msgs []agent.Message, text string) bool {
	for i, m := range msgs {
		if m.Role == agent.RoleUser && m.TextContent() == text {
			return i+1 < len(msgs) && msgs[i+1].Role == agent.RoleAssistant
		}
	}
	return false
}
