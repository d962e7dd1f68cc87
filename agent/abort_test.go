package agent_test

import (
	"context"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

func TestAbortDuringStreaming(t *testing.T) {
	f := newFixture(t, agenttest.NewScript(agenttest.Reply().Text("thinking about it").Hang()))
	streaming := waitForEvent(f.agent, "message_update text_delta")
	if err := f.agent.Prompt("hi"); err != nil {
		t.Fatal(err)
	}
	within(t, streaming, "streaming to start")
	f.agent.Steer("kept")
	f.agent.Abort()
	f.wait(t)
	msgs := f.agent.State().Messages
	last := msgs[len(msgs)-1]
	if last.Role != agent.RoleAssistant || last.StopReason != agent.StopReasonAborted {
		t.Fatalf("last message = %+v, want the aborted marker", last)
	}
	if last.TextContent() != "thinking about it" {
		t.Errorf("aborted message text = %q, want the partial text", last.TextContent())
	}
	traces := f.rec.Traces(false)
	if traces[len(traces)-1] != "agent_end messages=2" || traces[len(traces)-2] != "turn_end aborted results=0" {
		t.Fatalf("tail = %v", traces[len(traces)-3:])
	}
	if q := f.agent.Queue(); len(q) != 1 || q[0].Text != "kept" {
		t.Fatalf("queue after abort = %+v, want the steering item kept", q)
	}
}

func TestAbortDuringTool(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	cancelled := false
	f := newFixture(t, agenttest.NewScript(
		agenttest.Reply().ToolCall("c1", "work", `{}`).Stop(agent.StopReasonToolUse),
	), blockingTool(started, release, &cancelled))
	if err := f.agent.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	within(t, started, "the tool to start")
	f.agent.Abort()
	f.wait(t)
	if !cancelled {
		t.Fatal("the tool's context was not cancelled")
	}
	want := []string{
		"agent_start", "turn_start",
		"message_start user go", "message_end user go",
		"message_start assistant stop", "message_end assistant toolUse",
		"tool_execution_start work", "tool_execution_end work error=true",
		"message_start toolResult work error=true", "message_end toolResult work error=true",
		"turn_end toolUse results=1",
		"turn_start",
		"message_start assistant aborted", "message_end assistant aborted",
		"turn_end aborted results=0",
		"agent_end messages=4",
	}
	equalTraces(t, f.rec.Traces(false), want)
	assertNoDanglingToolCall(t, f.agent.State().Messages)
}

func TestAbortBeforeTheFirstRequest(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	script := agenttest.NewScript(agenttest.Reply().Text("never").Stop(agent.StopReasonStop))
	stream := agent.Loop(ctx, nil, []agent.Message{agent.UserMessage("hi", agenttest.Epoch)}, agent.LoopConfig{
		Model: agenttest.Model, Stream: script.Stream, Now: agenttest.Clock,
		// The first steering poll comes right before the first request.
		PollSteering: func() []agent.Message {
			cancel(&agent.AbortError{Reason: "run timed out after 1s"})
			return nil
		},
	})
	for range stream.Events() {
	}
	added, _ := stream.Result(context.Background())
	last := added[len(added)-1]
	if last.StopReason != agent.StopReasonAborted || last.ErrorMessage != "run timed out after 1s" {
		t.Fatalf("last = %s %q, want the aborted marker with the reason", last.StopReason, last.ErrorMessage)
	}
	if n := len(script.Requests()); n != 0 {
		t.Errorf("%d requests were sent after the abort", n)
	}
}

func assertNoDanglingToolCall(t *testing.T, msgs []agent.Message) {
	t.Helper()
	answered := map[string]bool{}
	for _, m := range msgs {
		if m.Role == agent.RoleToolResult {
			answered[m.ToolCallID] = true
		}
	}
	for _, m := range msgs {
		for _, c := range m.ToolCalls() {
			if !answered[c.ID] {
				t.Errorf("tool call %s has no result", c.ID)
			}
		}
	}
	if last := msgs[len(msgs)-1]; last.Role != agent.RoleAssistant || last.StopReason != agent.StopReasonAborted {
		t.Errorf("transcript ends with %+v, want the aborted marker", last)
	}
}

func TestAbortAfterPollingGivesTheInputBack(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	polled := agent.UserMessage("late steering", agenttest.Epoch)
	polled.QueueItemID = "item1"
	var given []agent.Message
	script := agenttest.NewScript(agenttest.Reply().Text("ok").Stop(agent.StopReasonStop))
	stream := agent.Loop(ctx, nil, []agent.Message{agent.UserMessage("hi", agenttest.Epoch)}, agent.LoopConfig{
		Model: agenttest.Model, Stream: script.Stream, Now: agenttest.Clock,
		PollSteering: func() []agent.Message {
			if len(script.Requests()) == 0 {
				return nil
			}
			cancel() // the abort lands between polling and injecting
			return []agent.Message{polled}
		},
		Unpoll: func(msgs []agent.Message) { given = append(given, msgs...) },
	})
	var injected bool
	for ev := range stream.Events() {
		if e, ok := ev.(agent.MessageStart); ok && e.Message.QueueItemID == "item1" {
			injected = true
		}
	}
	if injected {
		t.Fatal("the polled message was injected after the abort")
	}
	if len(given) != 1 || given[0].QueueItemID != "item1" {
		t.Fatalf("given back %v, want the polled message", given)
	}
}

func TestAgentRequeuesUnpolledItems(t *testing.T) {
	f := newFixture(t, agenttest.NewScript(agenttest.Reply().Text("thinking").Hang()))
	streaming := waitForEvent(f.agent, "message_update text_delta")
	if err := f.agent.Prompt("hi"); err != nil {
		t.Fatal(err)
	}
	within(t, streaming, "streaming")
	f.agent.Steer("one")
	f.agent.FollowUp("two")
	f.agent.Abort()
	f.wait(t)
	q := f.agent.Queue()
	if len(q) != 2 || q[0].Text != "one" || q[1].Text != "two" {
		t.Fatalf("queue after abort = %+v", q)
	}
}

// timeoutReason is a non-user abort reason, as the runner's run timeout words it.
const timeoutReason = "run timed out after 1s"

// assertMarker checks that the transcript ends with the aborted marker
// carrying reason.
func assertMarker(t *testing.T, a *agent.Agent, reason string) {
	t.Helper()
	msgs := a.State().Messages
	last := msgs[len(msgs)-1]
	if last.Role != agent.RoleAssistant || last.StopReason != agent.StopReasonAborted || last.ErrorMessage != reason {
		t.Fatalf("last message = %s %s %q, want the aborted marker with %q", last.Role, last.StopReason, last.ErrorMessage, reason)
	}
}

func TestAbortWithDuringATool(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	cancelled := false
	f := newFixture(t, agenttest.NewScript(
		agenttest.Reply().ToolCall("c1", "work", `{}`).Stop(agent.StopReasonToolUse),
	), blockingTool(started, release, &cancelled))
	if err := f.agent.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	within(t, started, "the tool to start")
	f.agent.AbortWith(timeoutReason)
	f.wait(t)
	assertMarker(t, f.agent, timeoutReason)
}

func TestAbortWithDuringStreaming(t *testing.T) {
	f := newFixture(t, agenttest.NewScript(agenttest.Reply().Text("partial").Hang()))
	streaming := waitForEvent(f.agent, "message_update text_delta")
	if err := f.agent.Prompt("hi"); err != nil {
		t.Fatal(err)
	}
	within(t, streaming, "streaming to start")
	f.agent.AbortWith(timeoutReason)
	f.wait(t)
	assertMarker(t, f.agent, timeoutReason)
	if got := f.agent.State().Messages[1].TextContent(); got != "partial" {
		t.Errorf("aborted message text = %q, want the partial text", got)
	}
}

func TestAbortWithBetweenTurns(t *testing.T) {
	var f *fixture
	// The tool aborts and still returns its result, so the abort is seen as
	// the turn ends, before the next request.
	tool := funcTool{name: "work", run: func(context.Context, map[string]any, agent.ToolUpdate) (agent.ToolResult, error) {
		f.agent.AbortWith(timeoutReason)
		return agent.TextResult("done"), nil
	}}
	f = newFixture(t, agenttest.NewScript(
		agenttest.Reply().ToolCall("c1", "work", `{}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text("never").Stop(agent.StopReasonStop),
	), tool)
	if err := f.agent.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	f.wait(t)
	assertMarker(t, f.agent, timeoutReason)
	if n := len(f.script.Requests()); n != 1 {
		t.Errorf("%d requests, want none after the abort", n)
	}
}

func TestAbortReasons(t *testing.T) {
	tests := []struct {
		name  string
		abort func(a *agent.Agent)
		want  string
	}{
		{"the user's abort", func(a *agent.Agent) { a.Abort() }, agent.AbortedMessage},
		{"the first reason wins", func(a *agent.Agent) {
			a.AbortWith(timeoutReason)
			a.AbortWith("the user quit")
			a.Abort()
		}, timeoutReason},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, agenttest.NewScript(agenttest.Reply().Text("partial").Hang()))
			streaming := waitForEvent(f.agent, "message_update text_delta")
			if err := f.agent.Prompt("hi"); err != nil {
				t.Fatal(err)
			}
			within(t, streaming, "streaming to start")
			tt.abort(f.agent)
			f.wait(t)
			assertMarker(t, f.agent, tt.want)
		})
	}
}
