package agent_test

import (
	"context"
	"sync"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// gatedPending is a Pending that holds one result at a drain point (Poll or
// Wait, as gate says) until the test has aborted the run, and then hands it
// over: the abort lands between polling and injecting.
type gatedPending struct {
	gate     string // "poll" or "wait"
	entered  chan struct{}
	proceed  chan struct{}
	result   agent.Message
	mu       sync.Mutex
	held     bool
	ready    []agent.Message
	returned []agent.Message
}

func newGatedPending(gate string) *gatedPending {
	r := agent.UserMessage("[sub-agent c1] 42", agenttest.Epoch)
	r.QueueItemID = "lease:l1"
	return &gatedPending{gate: gate, entered: make(chan struct{}), proceed: make(chan struct{}), result: r}
}

// hold hands the result over once, after the test let it, when point is
// the gate.
func (p *gatedPending) hold(point string) []agent.Message {
	p.mu.Lock()
	if p.held || p.gate != point {
		out := p.ready
		p.ready = nil
		p.mu.Unlock()
		return out
	}
	p.held = true
	p.mu.Unlock()
	close(p.entered)
	<-p.proceed
	return []agent.Message{p.result}
}

func (p *gatedPending) Poll() []agent.Message                  { return p.hold("poll") }
func (p *gatedPending) Wait(_ context.Context) []agent.Message { return p.hold("wait") }

func (p *gatedPending) Unpoll(msgs []agent.Message) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.returned = append(p.returned, msgs...)
	p.ready = append(append([]agent.Message(nil), msgs...), p.ready...)
}

// TestAbortBetweenPollAndInjectKeepsTheResult: a sub-agent's result that a
// drain point took just as the run was aborted is not injected into the
// aborted run, goes back to its source, and reaches the next run (S47).
func TestAbortBetweenPollAndInjectKeepsTheResult(t *testing.T) {
	tests := []struct {
		name    string
		gate    string
		replies []*agenttest.Response
		want    []string // the transcript's texts
	}{
		{"steering drain point (Poll)", "poll",
			[]*agenttest.Response{agenttest.Reply().Text("got it").Stop(agent.StopReasonStop)},
			[]string{"hi", "", "again", "[sub-agent c1] 42", "got it"}},
		{"the run's end (Wait)", "wait",
			[]*agenttest.Response{
				agenttest.Reply().Text("first").Stop(agent.StopReasonStop),
				agenttest.Reply().Text("got it").Stop(agent.StopReasonStop),
			},
			[]string{"hi", "first", "", "again", "[sub-agent c1] 42", "got it"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newGatedPending(tt.gate)
			script := agenttest.NewScript(tt.replies...)
			a := agent.New(agent.Config{Model: agenttest.Model, Stream: script.Stream, Now: agenttest.Clock, Pending: p})
			if err := a.Prompt("hi"); err != nil {
				t.Fatal(err)
			}
			within(t, p.entered, "the drain point")
			a.Abort()
			close(p.proceed)
			waitIdle(t, a)
			p.mu.Lock()
			returned := p.returned
			p.mu.Unlock()
			if len(returned) != 1 || returned[0].QueueItemID != "lease:l1" {
				t.Fatalf("given back to the Pending: %+v, want the result", returned)
			}
			if err := a.Prompt("again"); err != nil {
				t.Fatal(err)
			}
			waitIdle(t, a)
			equalTraces(t, texts(a.State().Messages), tt.want)
		})
	}
}

func waitIdle(t *testing.T, a *agent.Agent) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		_ = a.WaitForIdle(context.Background())
		close(done)
	}()
	within(t, done, "the agent to become idle")
}
