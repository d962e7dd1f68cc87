package agent_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// userGains lists, per request, the user messages it carries that the one
// before it (the first: the transcript base) did not.
func userGains(base []agent.Message, reqs []agent.LLMContext) [][]string {
	seen := len(userTexts(base))
	gains := make([][]string, len(reqs))
	for i, r := range reqs {
		users := userTexts(r.Messages)
		gains[i] = users[seen:]
		seen = len(users)
	}
	return gains
}

func userTexts(msgs []agent.Message) []string {
	var out []string
	for _, m := range msgs {
		if m.Role == agent.RoleUser {
			out = append(out, m.TextContent())
		}
	}
	return out
}

func replies(n int) []*agenttest.Response {
	out := make([]*agenttest.Response, n)
	for i := range out {
		out[i] = agenttest.Reply().Text(fmt.Sprint("answer ", i)).Stop(agent.StopReasonStop)
	}
	return out
}

// sleepTool runs until its context is cancelled, like `sleep 5` cut short.
func sleepTool(started chan<- struct{}) funcTool {
	return funcTool{name: "bash", run: func(ctx context.Context, _ map[string]any, _ agent.ToolUpdate) (agent.ToolResult, error) {
		close(started)
		<-ctx.Done()
		return agent.ErrorResult("killed"), nil
	}}
}

func TestSteerWhileIdleAfterAbortTakesOneItemPerRequest(t *testing.T) {
	tests := []struct {
		name string
		mode agent.QueueMode
		want [][]string
	}{
		{"one at a time", agent.QueueOneAtATime, [][]string{{"one"}, {"two"}, {"three"}, {"four"}}},
		{"all", agent.QueueAll, [][]string{{"one", "two", "three", "four"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			started := make(chan struct{})
			script := agenttest.NewScript(append([]*agenttest.Response{
				agenttest.Reply().ToolCall("c1", "bash", `{"command":"sleep 5"}`).Stop(agent.StopReasonToolUse),
			}, replies(len(tt.want))...)...)
			f := newFixture(t, script, sleepTool(started))
			f.agent.SetSteeringMode(tt.mode)
			if err := f.agent.Prompt("run sleep 5"); err != nil {
				t.Fatal(err)
			}
			within(t, started, "the tool to start")
			for _, text := range []string{"one", "two", "three"} {
				f.agent.Steer(text)
			}
			f.agent.Abort()
			f.wait(t)
			base := f.agent.State().Messages
			asked := len(script.Requests())
			f.agent.Deliver(agent.QueueItem{Kind: agent.QueueSteer, Text: "four"})
			f.wait(t)
			assertGains(t, userGains(base, script.Requests()[asked:]), tt.want)
			if q := f.agent.Queue(); len(q) != 0 {
				t.Fatalf("queue = %+v, want every item delivered", q)
			}
		})
	}
}

func TestDeliverWhileIdleTakesSteeringBeforeFollowUps(t *testing.T) {
	tests := []struct {
		name string
		mode agent.QueueMode
		want [][]string
	}{
		{"one at a time", agent.QueueOneAtATime, [][]string{{"s1"}, {"f1"}, {"f2"}}},
		{"all", agent.QueueAll, [][]string{{"s1"}, {"f1", "f2"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			script := agenttest.NewScript(replies(len(tt.want))...)
			f := newFixture(t, script)
			f.agent.SetSteeringMode(tt.mode)
			f.agent.SetFollowUpMode(tt.mode)
			// As a resumed session restores its saved inputs.
			f.agent.Enqueue(agent.QueueItem{Kind: agent.QueueFollowUp, Text: "f1"})
			f.agent.Enqueue(agent.QueueItem{Kind: agent.QueueSteer, Text: "s1"})
			item, queued := f.agent.Deliver(agent.QueueItem{Kind: agent.QueueFollowUp, Text: "f2"})
			if !queued {
				t.Error("Deliver while idle said the input started the run, but older input went first")
			}
			f.wait(t)
			assertGains(t, userGains(nil, script.Requests()), tt.want)
			msgs := f.agent.State().Messages
			if last := msgs[len(msgs)-2]; last.QueueItemID != item.ID {
				t.Errorf("the last user message has item id %q, want %q", last.QueueItemID, item.ID)
			}
		})
	}
}

func TestInputQueuedAsTheRunEndsIsTakenOneAtATime(t *testing.T) {
	script := agenttest.NewScript(replies(3)...)
	f := newFixture(t, script)
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
	// Each Steer queues at once, then waits to announce behind agent_end.
	for i, text := range []string{"x", "y"} {
		go f.agent.Steer(text)
		waitUntil(t, func() bool { return len(f.agent.Queue()) == i+1 }, "the item to be queued")
	}
	close(leave)
	f.wait(t)
	assertGains(t, userGains(nil, script.Requests()), [][]string{{"start"}, {"x"}, {"y"}})
}

func assertGains(t *testing.T, got, want [][]string) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("each request gained %v, want %v", got, want)
	}
}
