package agent_test

import (
	"context"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// blockingTool runs until release is closed and reports whether its context
// was cancelled.
func blockingTool(started chan<- struct{}, release <-chan struct{}, cancelled *bool) funcTool {
	return funcTool{name: "work", run: func(ctx context.Context, _ map[string]any, _ agent.ToolUpdate) (agent.ToolResult, error) {
		close(started)
		select {
		case <-release:
			return agent.TextResult("work finished"), nil
		case <-ctx.Done():
			*cancelled = true
			return agent.ErrorResult("work cancelled"), nil
		}
	}}
}

func TestSteeringWaitsForTheToolBatch(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	cancelled := false
	f := newFixture(t, agenttest.NewScript(
		agenttest.Reply().ToolCall("c1", "work", `{}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text("course corrected").Stop(agent.StopReasonStop),
	), blockingTool(started, release, &cancelled))
	if err := f.agent.Prompt("do work"); err != nil {
		t.Fatal(err)
	}
	within(t, started, "the tool to start")
	item := f.agent.Steer("focus on tests")
	if item.ID == "" || item.Kind != agent.QueueSteer {
		t.Fatalf("queued item = %+v", item)
	}
	close(release)
	f.wait(t)
	if cancelled {
		t.Fatal("steering cancelled the running tool batch")
	}
	want := []string{
		"agent_start", "turn_start",
		"message_start user do work", "message_end user do work",
		"message_start assistant stop", "message_end assistant toolUse",
		"tool_execution_start work",
		"tool_execution_end work error=false",
		"message_start toolResult work error=false", "message_end toolResult work error=false",
		"turn_end toolUse results=1",
		"turn_start",
		"message_start user focus on tests", "message_end user focus on tests",
		"message_start assistant stop", "message_end assistant stop",
		"turn_end stop results=0",
		"agent_end messages=5",
	}
	equalTraces(t, withoutQueueUpdates(f.rec.Traces(false)), want)
	assertQueueLeavesWithInjection(t, f.rec.Traces(false), "focus on tests")
	// The second request saw the tool result, then the steering message.
	req := f.script.Requests()[1].Messages
	if got := req[len(req)-1]; got.Role != agent.RoleUser || got.TextContent() != "focus on tests" || got.QueueItemID != item.ID {
		t.Fatalf("last message of the second request = %+v, want the steering message with its item id", got)
	}
	if got := req[len(req)-2]; got.Role != agent.RoleToolResult || got.IsError {
		t.Fatalf("message before steering = %+v, want the tool's normal result", got)
	}
}

func TestFollowUpRevivesTheRun(t *testing.T) {
	release := make(chan struct{})
	f := newFixture(t, agenttest.NewScript(
		agenttest.Reply().Wait(release).Text("first").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("second").Stop(agent.StopReasonStop),
	))
	queued := waitForEvent(f.agent, "queue_update [follow_up:and then this]")
	if err := f.agent.Prompt("start"); err != nil {
		t.Fatal(err)
	}
	f.agent.FollowUp("and then this")
	within(t, queued, "the follow-up to be queued")
	close(release)
	f.wait(t)
	want := []string{
		"agent_start", "turn_start",
		"message_start user start", "message_end user start",
		"message_start assistant stop", "message_end assistant stop",
		"turn_end stop results=0",
		"turn_start",
		"message_start user and then this", "message_end user and then this",
		"message_start assistant stop", "message_end assistant stop",
		"turn_end stop results=0",
		"agent_end messages=4",
	}
	equalTraces(t, withoutQueueUpdates(f.rec.Traces(false)), want)
	assertQueueLeavesWithInjection(t, f.rec.Traces(false), "and then this")
}

func TestQueueModes(t *testing.T) {
	tests := []struct {
		name     string
		mode     agent.QueueMode
		requests int
		// userTexts lists the user texts each request ended with.
		lastUser []string
	}{
		{name: "one at a time", mode: agent.QueueOneAtATime, requests: 3, lastUser: []string{"start", "a", "b"}},
		{name: "all", mode: agent.QueueAll, requests: 2, lastUser: []string{"start", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			release := make(chan struct{})
			var replies []*agenttest.Response
			replies = append(replies, agenttest.Reply().Wait(release).Text("r0").Stop(agent.StopReasonStop))
			for i := 1; i < tt.requests; i++ {
				replies = append(replies, agenttest.Reply().Text("r").Stop(agent.StopReasonStop))
			}
			f := newFixture(t, agenttest.NewScript(replies...))
			f.agent.SetFollowUpMode(tt.mode)
			if err := f.agent.Prompt("start"); err != nil {
				t.Fatal(err)
			}
			f.agent.FollowUp("a")
			f.agent.FollowUp("b")
			close(release)
			f.wait(t)
			reqs := f.script.Requests()
			if len(reqs) != tt.requests {
				t.Fatalf("%d requests, want %d", len(reqs), tt.requests)
			}
			for i, want := range tt.lastUser {
				msgs := reqs[i].Messages
				if got := msgs[len(msgs)-1].TextContent(); got != want {
					t.Errorf("request %d ended with %q, want %q", i, got, want)
				}
			}
			if tt.mode == agent.QueueAll {
				msgs := reqs[1].Messages
				if got := msgs[len(msgs)-2].TextContent(); got != "a" {
					t.Errorf("mode all: request 2 has %q before b, want a", got)
				}
			}
			if starts := countTrace(f.rec.Traces(false), "agent_start"); starts != 1 {
				t.Errorf("%d agent_start events, want one run", starts)
			}
		})
	}
}

func TestSteeringModeAllInjectsEverything(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	cancelled := false
	f := newFixture(t, agenttest.NewScript(
		agenttest.Reply().ToolCall("c1", "work", `{}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text("ok").Stop(agent.StopReasonStop),
	), blockingTool(started, release, &cancelled))
	f.agent.SetSteeringMode(agent.QueueAll)
	if err := f.agent.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	within(t, started, "the tool to start")
	f.agent.Steer("one")
	f.agent.Steer("two")
	close(release)
	f.wait(t)
	reqs := f.script.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	msgs := reqs[1].Messages
	if a, b := msgs[len(msgs)-2].TextContent(), msgs[len(msgs)-1].TextContent(); a != "one" || b != "two" {
		t.Fatalf("second request ended with %q, %q", a, b)
	}
}

func TestDequeueAndClear(t *testing.T) {
	f := newFixture(t, agenttest.NewScript())
	a := f.agent.Steer("a")
	f.agent.FollowUp("b")
	f.agent.Steer("c")
	if got, ok := f.agent.Dequeue(a.ID); !ok || got.Text != "a" {
		t.Fatalf("Dequeue = %+v, %v", got, ok)
	}
	if _, ok := f.agent.Dequeue(a.ID); ok {
		t.Fatal("an item was dequeued twice")
	}
	items := f.agent.ClearQueues()
	if len(items) != 2 || items[0].Text != "c" || items[1].Text != "b" {
		t.Fatalf("ClearQueues = %+v, want steering c then follow-up b", items)
	}
	want := []string{
		"queue_update [steer:a]",
		"queue_update [steer:a,follow_up:b]",
		"queue_update [steer:a,steer:c,follow_up:b]",
		"queue_update [steer:c,follow_up:b]",
		"queue_update []",
	}
	equalTraces(t, f.rec.Traces(false), want)
}

func TestInputQueuedAsTheRunEndsStartsTheNextRun(t *testing.T) {
	f := newFixture(t, agenttest.NewScript(
		agenttest.Reply().Text("first").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("second").Stop(agent.StopReasonStop),
	))
	// Hold the run in agent_end, after its last drain point, and queue then.
	inEnd, leave := make(chan struct{}), make(chan struct{})
	var once sync.Once
	f.agent.Subscribe(func(ev agent.Event) {
		if _, ok := ev.(agent.AgentEnd); ok {
			once.Do(func() {
				close(inEnd)
				<-leave
			})
		}
	})
	if err := f.agent.Prompt("start"); err != nil {
		t.Fatal(err)
	}
	<-inEnd
	go f.agent.FollowUp("late")
	waitUntil(t, func() bool { return len(f.agent.Queue()) == 1 }, "the late item to be queued")
	close(leave)
	f.wait(t)
	msgs := f.agent.State().Messages
	if len(msgs) != 4 || msgs[2].TextContent() != "late" || msgs[3].TextContent() != "second" {
		t.Fatalf("messages = %v, want the late follow-up answered", texts(msgs))
	}
	if starts := countTrace(f.rec.Traces(false), "agent_start"); starts != 2 {
		t.Errorf("%d runs, want the late item to start a second run", starts)
	}
}

func TestDeliver(t *testing.T) {
	release := make(chan struct{})
	f := newFixture(t, agenttest.NewScript(
		agenttest.Reply().Wait(release).Text("first").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("second").Stop(agent.StopReasonStop),
	))
	requested := waitForEvent(f.agent, "message_start assistant stop")
	if _, queued := f.agent.Deliver(agent.QueueItem{Kind: agent.QueueSteer, Text: "idle"}); queued {
		t.Fatal("Deliver while idle queued instead of starting a run")
	}
	within(t, requested, "the first request")
	if _, queued := f.agent.Deliver(agent.QueueItem{Kind: agent.QueueSteer, Text: "busy"}); !queued {
		t.Fatal("Deliver while running did not queue")
	}
	close(release)
	f.wait(t)
	if got := texts(f.agent.State().Messages); strings.Join(got, "|") != "idle|first|busy|second" {
		t.Fatalf("messages = %v", got)
	}
}

func texts(msgs []agent.Message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = m.TextContent()
	}
	return out
}

func withoutQueueUpdates(traces []string) []string {
	var out []string
	for _, tr := range traces {
		if !strings.HasPrefix(tr, "queue_update") {
			out = append(out, tr)
		}
	}
	return out
}

// assertQueueLeavesWithInjection checks that the item was shown queued, and
// that the queue update without it came right before its message.
func assertQueueLeavesWithInjection(t *testing.T, traces []string, text string) {
	t.Helper()
	shown := false
	for i, tr := range traces {
		if strings.HasPrefix(tr, "queue_update") && strings.Contains(tr, ":"+text) {
			shown = true
		}
		if tr == "message_start user "+text {
			if !shown {
				t.Fatalf("%q was injected without having been shown queued", text)
			}
			if i == 0 || traces[i-1] != "queue_update []" {
				t.Fatalf("event before the injection of %q = %q, want the queue update removing it", text, traces[i-1])
			}
			return
		}
	}
	t.Fatalf("%q was never injected", text)
}

func waitUntil(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		runtime.Gosched()
	}
}

func countTrace(traces []string, want string) int {
	n := 0
	for _, tr := range traces {
		if tr == want {
			n++
		}
	}
	return n
}

func TestDeliverWhileIdleKeepsOlderQueuedInputFirst(t *testing.T) {
	f := newFixture(t, agenttest.NewScript(
		agenttest.Reply().Text("thinking").Hang(),
		agenttest.Reply().Text("ok").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("ok").Stop(agent.StopReasonStop),
	))
	streaming := waitForEvent(f.agent, "message_update text_delta")
	if err := f.agent.Prompt("first"); err != nil {
		t.Fatal(err)
	}
	within(t, streaming, "streaming")
	f.agent.Steer("older")
	f.agent.Abort()
	f.wait(t)
	if _, queued := f.agent.Deliver(agent.QueueItem{Kind: agent.QueueSteer, Text: "newer"}); !queued {
		t.Fatal("Deliver while idle did not queue the input behind the older one")
	}
	f.wait(t)
	users := []string{}
	for _, m := range f.agent.State().Messages {
		if m.Role == agent.RoleUser {
			users = append(users, m.TextContent())
		}
	}
	if strings.Join(users, "|") != "first|older|newer" {
		t.Fatalf("user messages = %v, want the older queued input before the newer one", users)
	}
	if q := f.agent.Queue(); len(q) != 0 {
		t.Fatalf("queue = %+v", q)
	}
}

func TestModelSwitchedDuringARunAppliesToTheNextRequest(t *testing.T) {
	release := make(chan struct{})
	first := agenttest.NewScript(agenttest.Reply().Wait(release).Text("from A").Stop(agent.StopReasonStop))
	second := agenttest.NewScript(agenttest.Reply().Text("from B").Stop(agent.StopReasonStop))
	f := newFixture(t, first)
	requested := waitForEvent(f.agent, "message_start assistant stop")
	if err := f.agent.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	within(t, requested, "the first request")
	modelB := agenttest.Model
	modelB.ID = "model-b"
	f.agent.SetModel(modelB, second.Stream)
	f.agent.FollowUp("and then")
	close(release)
	f.wait(t)
	if n := len(second.Requests()); n != 1 {
		t.Fatalf("model B got %d requests, want the follow-up's", n)
	}
	msgs := f.agent.State().Messages
	if last := msgs[len(msgs)-1]; last.Model != "model-b" || last.TextContent() != "from B" {
		t.Fatalf("last answer = %s %q, want model-b", last.Model, last.TextContent())
	}
}
