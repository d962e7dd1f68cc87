package agent_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// slowSubscriberDeltas is more text deltas than every buffer between the
// provider and the subscribers holds, so a loop that waited for its
// subscribers would stall before the response ended.
const slowSubscriberDeltas = 1000

func TestPanickingSubscriberFailsTheRun(t *testing.T) {
	started := make(chan struct{})
	f := newFixture(t, agenttest.NewScript(
		agenttest.Reply().ToolCall("c1", "bash", `{}`).Stop(agent.StopReasonToolUse),
	), sleepTool(started))
	f.agent.Subscribe(func(ev agent.Event) {
		if _, ok := ev.(agent.ToolExecutionStart); ok {
			panic("boom")
		}
	})
	after := &agenttest.Recorder{}
	f.agent.Subscribe(after.Record)
	if err := f.agent.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	f.wait(t)
	want := []string{
		"agent_start", "turn_start",
		"message_start user go", "message_end user go",
		"message_start assistant stop", "message_end assistant toolUse",
		"tool_execution_start bash", "tool_execution_end bash error=true",
		"message_start toolResult bash error=true", "message_end toolResult bash error=true",
		"turn_end toolUse results=1",
		"turn_start",
		"message_start assistant error", "message_end assistant error",
		"turn_end error results=0",
		"agent_end messages=4",
	}
	equalTraces(t, f.rec.Traces(false), want)
	equalTraces(t, after.Traces(false), want)
	msgs := f.agent.State().Messages
	if last := msgs[len(msgs)-1]; last.ErrorMessage != "a subscriber panicked: boom" {
		t.Errorf("errorMessage = %q, want the subscriber's panic", last.ErrorMessage)
	}
	if f.agent.State().Running {
		t.Error("the agent is still running")
	}
}

func TestSubscriberPanicWhileIdleIsContained(t *testing.T) {
	f := newFixture(t, agenttest.NewScript(agenttest.Reply().Text("never").Hang()))
	f.agent.Subscribe(func(agent.Event) { panic("boom") })
	after := &agenttest.Recorder{}
	f.agent.Subscribe(after.Record)
	f.agent.Steer("queued while idle")
	equalTraces(t, after.Traces(false), []string{"queue_update [steer:queued while idle]"})
	// A later run is not failed by a panic that came before it.
	f.agent.ClearQueues()
	if err := f.agent.Prompt("hi"); err != nil {
		t.Fatal(err)
	}
	f.wait(t)
	msgs := f.agent.State().Messages
	if last := msgs[len(msgs)-1]; last.StopReason != agent.StopReasonError || last.ErrorMessage != "a subscriber panicked: boom" {
		t.Fatalf("last = %s %q, want the run failed by the panic in its own events", last.StopReason, last.ErrorMessage)
	}
}

func TestSlowSubscriberDoesNotStallTheLoop(t *testing.T) {
	deltas := agenttest.Reply()
	for i := range slowSubscriberDeltas {
		deltas.Text(fmt.Sprint(i, " "))
	}
	script := agenttest.NewScript(
		deltas.ToolCall("c1", "echo", `{"text":"pong"}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text("done").Stop(agent.StopReasonStop),
	)
	secondRequest := make(chan struct{})
	requests := 0
	stream := func(ctx context.Context, m agent.Model, llm agent.LLMContext, o agent.StreamOptions) *agent.AssistantStream {
		if requests++; requests == 2 {
			close(secondRequest)
		}
		return script.Stream(ctx, m, llm, o)
	}
	f := newFixture(t, script, echoTool("echo"))
	f.agent.SetModel(agenttest.Model, stream)
	release := make(chan struct{})
	f.agent.Subscribe(func(ev agent.Event) {
		if _, ok := ev.(agent.AgentStart); ok {
			<-release
		}
	})
	after := &agenttest.Recorder{}
	f.agent.Subscribe(after.Record)
	if err := f.agent.Prompt("hi"); err != nil {
		t.Fatal(err)
	}
	// The loop streams the whole response and runs the tool while the
	// subscriber still sits in agent_start.
	within(t, secondRequest, "the loop to reach its second request")
	assertBusy(t, f.agent)
	close(release)
	f.wait(t)
	want := []string{
		"agent_start", "turn_start",
		"message_start user hi", "message_end user hi",
		"message_start assistant stop", "message_end assistant toolUse",
		"tool_execution_start echo", "tool_execution_end echo error=false",
		"message_start toolResult echo error=false", "message_end toolResult echo error=false",
		"turn_end toolUse results=1",
		"turn_start",
		"message_start assistant stop", "message_end assistant stop",
		"turn_end stop results=0",
		"agent_end messages=4",
	}
	equalTraces(t, after.Traces(false), want)
	equalTraces(t, after.Traces(true), f.rec.Traces(true))
	var got strings.Builder
	for _, ev := range after.Events() {
		if u, ok := ev.(agent.MessageUpdate); ok && u.Event.Type == agent.EventTextDelta {
			got.WriteString(u.Event.Delta)
		}
	}
	if want := f.agent.State().Messages[1].TextContent() + "done"; got.String() != want {
		t.Fatalf("the deltas the subscriber saw spell %d bytes, want the %d of the responses, in order", got.Len(), len(want))
	}
}

func TestIdleWaitsForEverySubscriberOfAgentEnd(t *testing.T) {
	f := newFixture(t, agenttest.NewScript(agenttest.Reply().Text("ok").Stop(agent.StopReasonStop)))
	inEnd, leave := make(chan struct{}), make(chan struct{})
	f.agent.Subscribe(func(ev agent.Event) {
		if _, ok := ev.(agent.AgentEnd); ok {
			close(inEnd)
			<-leave
		}
	})
	if err := f.agent.Prompt("hi"); err != nil {
		t.Fatal(err)
	}
	within(t, inEnd, "agent_end")
	assertBusy(t, f.agent)
	close(leave)
	f.wait(t)
}

// assertBusy checks that the agent is not idle: its run state stands and
// WaitForIdle does not return nil.
func assertBusy(t *testing.T, a *agent.Agent) {
	t.Helper()
	if !a.State().Running {
		t.Error("the agent reports no run")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := a.WaitForIdle(ctx); err == nil {
		t.Error("WaitForIdle returned while a subscriber has not seen agent_end")
	}
}
