package tui

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/screen"
)

// fakeEvents is an Events source the test pushes events into.
type fakeEvents struct {
	mu     sync.Mutex
	sub    agent.Subscriber
	notice func(runner.Notice)
}

func (f *fakeEvents) Subscribe(fn agent.Subscriber) func() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sub = fn
	return func() {}
}

func (f *fakeEvents) State() runner.State { return runner.State{} }

func (f *fakeEvents) SubscribeNotices(fn func(runner.Notice)) func() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.notice = fn
	return func() {}
}

func (f *fakeEvents) emit(evs ...agent.Event) {
	for _, ev := range evs {
		f.sub(ev)
	}
}

func delta(text string) agent.MessageUpdate {
	return agent.MessageUpdate{
		Message: agent.Message{Role: agent.RoleAssistant, Content: []agent.Content{agent.Text(text)}},
		Event:   agent.AssistantEvent{Type: agent.EventTextDelta, Delta: text},
	}
}

func toolUpdate(id, out string) agent.ToolExecutionUpdate {
	return agent.ToolExecutionUpdate{ToolCallID: id, ToolName: "bash", Partial: agent.TextResult(out)}
}

// collect starts a bridge on src with interval and returns what it sent.
func collect(t *testing.T, src *fakeEvents, interval time.Duration) (*bridge, chan tea.Msg) {
	t.Helper()
	return collectOn(t, src, interval, screen.RealClock)
}

func collectOn(t *testing.T, src *fakeEvents, interval time.Duration, clock screen.Clock) (*bridge, chan tea.Msg) {
	t.Helper()
	out := make(chan tea.Msg, 100)
	b := startBridge(src, func(m tea.Msg) { out <- m }, interval, clock)
	t.Cleanup(b.stop)
	return b, out
}

// pumpClock is a clock that moves only when the test advances it. Each
// timer scheduled is announced on armed with its duration, so the test
// knows when the pump has chosen to wait.
type pumpClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*pumpTimer
	armed  chan time.Duration
}

type pumpTimer struct {
	clock   *pumpClock
	at      time.Time
	f       func()
	stopped bool
}

func newPumpClock() *pumpClock {
	return &pumpClock{now: epoch, armed: make(chan time.Duration, 16)}
}

func (c *pumpClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *pumpClock) AfterFunc(d time.Duration, f func()) screen.Timer {
	c.mu.Lock()
	tm := &pumpTimer{clock: c, at: c.now.Add(d), f: f}
	c.timers = append(c.timers, tm)
	c.mu.Unlock()
	c.armed <- d
	return tm
}

// advance moves the clock by d and runs the timers that came due.
func (c *pumpClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []func()
	kept := c.timers[:0]
	for _, tm := range c.timers {
		switch {
		case tm.stopped:
		case !tm.at.After(c.now):
			due = append(due, tm.f)
		default:
			kept = append(kept, tm)
		}
	}
	c.timers = kept
	c.mu.Unlock()
	for _, f := range due {
		f()
	}
}

func (tm *pumpTimer) Stop() bool {
	tm.clock.mu.Lock()
	defer tm.clock.mu.Unlock()
	was := !tm.stopped
	tm.stopped = true
	return was
}

func next(t *testing.T, out chan tea.Msg, within time.Duration) msgs.RunEventMsg {
	t.Helper()
	select {
	case m := <-out:
		return m.(msgs.RunEventMsg)
	case <-time.After(within):
		t.Fatalf("nothing flushed within %v", within)
		return msgs.RunEventMsg{}
	}
}

// next2 is the next message sent, of any kind.
func next2(t *testing.T, out chan tea.Msg) tea.Msg {
	t.Helper()
	select {
	case m := <-out:
		return m
	case <-time.After(time.Second):
		t.Fatal("nothing flushed within a second")
		return nil
	}
}

func TestBridgeCoalescesDeltasAndToolUpdates(t *testing.T) {
	src := &fakeEvents{}
	b, out := collect(t, src, time.Hour) // only urgent events flush
	b.receive(agent.AgentStart{})
	first := next(t, out, time.Second)
	if len(first.Events) != 1 || first.RunID != 1 {
		t.Fatalf("first flush = %+v", first)
	}
	src.emit(delta("H"), delta("He"), delta("Hel"),
		toolUpdate("a", "1"), toolUpdate("b", "x"), toolUpdate("a", "1\n2"),
		delta("Hell"), delta("Hello"),
		agent.ToolExecutionEnd{ToolCallID: "a", ToolName: "bash"})
	got := next(t, out, time.Second)
	want := []agent.Event{delta("Hel"), toolUpdate("a", "1\n2"), toolUpdate("b", "x"), delta("Hello"),
		agent.ToolExecutionEnd{ToolCallID: "a", ToolName: "bash"}}
	if len(got.Events) != len(want) {
		t.Fatalf("flushed %d events, want %d: %#v", len(got.Events), len(want), got.Events)
	}
	for i := range want {
		if typeAndText(got.Events[i]) != typeAndText(want[i]) {
			t.Errorf("event %d = %s, want %s", i, typeAndText(got.Events[i]), typeAndText(want[i]))
		}
	}
}

func typeAndText(ev agent.Event) string {
	switch e := ev.(type) {
	case agent.MessageUpdate:
		return "delta " + e.Message.TextContent()
	case agent.ToolExecutionUpdate:
		return "tool " + e.ToolCallID + " " + e.Partial.Content[0].Text
	}
	return ev.Type()
}

// TestBridgeThrottlesDeltasButNotFinalStates runs the pump on a clock that
// moves only when the test says: deltas wait for the interval counted from
// the last flush, and a final state goes out though the clock never moves.
func TestBridgeThrottlesDeltasButNotFinalStates(t *testing.T) {
	const interval = 200 * time.Millisecond
	src, clock := &fakeEvents{}, newPumpClock()
	_, out := collectOn(t, src, interval, clock)
	src.emit(agent.AgentStart{})
	next(t, out, time.Second)

	src.emit(delta("a"))
	src.emit(delta("ab"))
	select {
	case m := <-out:
		t.Fatalf("deltas flushed before the interval: %#v", m)
	case d := <-clock.armed:
		if d != interval {
			t.Fatalf("the pump waits %v after a flush, want the interval %v", d, interval)
		}
	case <-time.After(time.Second):
		t.Fatal("the pump neither flushed nor waited within a second")
	}
	clock.advance(interval - time.Nanosecond)
	select {
	case m := <-out:
		t.Fatalf("deltas flushed before the interval: %#v", m)
	default:
	}
	clock.advance(time.Nanosecond)
	got := next(t, out, time.Second)
	if len(got.Events) != 1 {
		t.Fatalf("deltas were not merged: %d events", len(got.Events))
	}

	src.emit(delta("abc"), agent.MessageEnd{Message: agent.Message{Role: agent.RoleAssistant}})
	got = next(t, out, time.Second)
	if len(got.Events) != 2 {
		t.Fatalf("flushed %d events, want the delta and the end", len(got.Events))
	}
}

func TestBridgeTagsRuns(t *testing.T) {
	src := &fakeEvents{}
	_, out := collect(t, src, time.Hour)
	src.emit(agent.AgentStart{}, agent.AgentEnd{}, agent.AgentStart{}, agent.QueueUpdate{})
	var runs []uint64
	for len(runs) < 4 {
		m := next(t, out, time.Second)
		for range m.Events {
			runs = append(runs, m.RunID)
		}
	}
	if want := []uint64{1, 1, 2, 2}; fmt.Sprint(runs) != fmt.Sprint(want) {
		t.Fatalf("run ids = %v, want %v", runs, want)
	}
}

func TestBridgeSplitsEnvelopesByRun(t *testing.T) {
	b := &bridge{toolAt: map[string]int{}}
	b.pending = []tagged{{run: 1, ev: agent.TurnEnd{}}, {run: 1, ev: agent.AgentEnd{}}, {run: 2, ev: agent.AgentStart{}}}
	got := b.take()
	first, ok1 := got[0].(msgs.RunEventMsg)
	second, ok2 := got[len(got)-1].(msgs.RunEventMsg)
	if len(got) != 2 || !ok1 || !ok2 || first.RunID != 1 || len(first.Events) != 2 || second.RunID != 2 {
		t.Fatalf("envelopes = %+v", got)
	}
}

// TestBridgeTakeLeavesNoStaleSignal: once the buffer is taken no wake-up
// is left behind for it, so a delta that comes next is not flushed early
// on the urgent signal of an event already sent.
func TestBridgeTakeLeavesNoStaleSignal(t *testing.T) {
	tests := []struct {
		name   string
		arrive func(b *bridge)
	}{
		{"an urgent event", func(b *bridge) { b.receive(agent.AgentStart{}) }},
		{"a delta", func(b *bridge) { b.receive(delta("a")) }},
		{"a notice", func(b *bridge) { b.notice(runner.Notice{Kind: runner.NoticePersistError}) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &bridge{toolAt: map[string]int{}, wake: make(chan struct{}, 1), urgent: make(chan struct{}, 1)}
			tt.arrive(b)
			if len(b.wake) != 1 {
				t.Fatal("the arrival did not wake the pump")
			}
			if got := b.take(); len(got) != 1 {
				t.Fatalf("took %#v, want the one arrival", got)
			}
			if len(b.wake) != 0 || len(b.urgent) != 0 {
				t.Fatalf("signals left after the take: wake %d, urgent %d", len(b.wake), len(b.urgent))
			}
		})
	}
}

// TestBridgeSendsASwitchBetweenTheEvents: the snapshot of a session switched
// to goes out between the events before it and those after it, and no
// delta merges across it.
func TestBridgeSendsASwitchBetweenTheEvents(t *testing.T) {
	src := &fakeEvents{}
	_, out := collect(t, src, time.Hour)
	loaded := agent.Annotation{Kind: runner.AnnotationSessionLoaded, Data: runner.SessionLoaded{
		State: runner.State{SessionID: "s_b", State: agent.State{Running: true}}}}
	src.emit(delta("old"), loaded, delta("new"), agent.AgentEnd{})
	var got []string
	for len(got) < 3 {
		switch m := next2(t, out).(type) {
		case msgs.RunEventMsg:
			for _, ev := range m.Events {
				if u, ok := ev.(agent.MessageUpdate); ok {
					got = append(got, "delta "+u.Event.Delta)
				}
			}
		case msgs.SessionLoadedMsg:
			if !m.Switched || !m.Running {
				t.Errorf("snapshot %+v, want an announced switch to a running session", m)
			}
			got = append(got, "loaded "+m.SessionID)
		}
	}
	if want := "delta old,loaded s_b,delta new"; strings.Join(got, ",") != want {
		t.Fatalf("sent %v, want %s", got, want)
	}
}

func TestRootDropsStaleEnvelopes(t *testing.T) {
	m := New(nil, Options{Now: fixedClock})
	m, _ = m.handleRunEvents(msgs.RunEventMsg{RunID: 2, Events: []agent.Event{agent.AgentStart{}}})
	m, _ = m.handleRunEvents(msgs.RunEventMsg{RunID: 1, Events: []agent.Event{agent.AgentEnd{}}})
	if !m.running {
		t.Fatal("an envelope of an older run changed the state")
	}
}

func TestBridgeForwardsNoticesAtOnce(t *testing.T) {
	src := &fakeEvents{}
	_, out := collect(t, src, time.Hour)
	src.emit(delta("a")) // a delta waits for the interval…
	src.notice(runner.Notice{Kind: runner.NoticePersistError, Text: "disk full"})
	var got []tea.Msg
	for len(got) < 2 {
		select {
		case m := <-out:
			got = append(got, m)
		case <-time.After(time.Second):
			t.Fatalf("the notice was not flushed at once; got %#v", got)
		}
	}
	n, ok := got[1].(msgs.NoticeArrivedMsg)
	if !ok || n.Notice.Text != "disk full" {
		t.Fatalf("flushed %#v, want the delta then the notice", got)
	}
}
