package tui

import (
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/screen"
)

// FlushInterval is the shortest time between two deltas-only flushes of the
// bridge: about 30 frames a second however fast the provider streams.
const FlushInterval = 33 * time.Millisecond

// bridge is the one way runtime events reach the program. Its subscriber runs
// on the runtime's goroutine and only appends to a buffer, coalescing as it
// goes, so the agent never waits for the screen: consecutive message deltas
// collapse into the latest snapshot (each carries the whole message so far)
// and a running tool keeps only its latest output. One pump goroutine sends
// the buffer to the program as a msgs.RunEventMsg, at most every interval
// while only deltas arrive and at once when any other event does, so final
// states are never late and never lost. The runtime's notices (a failed
// save, its recovery) take the same way, as msgs.NoticeArrivedMsg, at once.
// Nothing else calls Send but the owner of runtime calls, with its replies.
//
// The wake and urgent signals are sent and drained under mu, with the
// buffer they announce: a signal in a channel always stands for something
// not yet taken, so a stale one can never flush later deltas early.
type bridge struct {
	send     func(tea.Msg)
	interval time.Duration
	clock    screen.Clock // times the interval; tests drive a fake one

	mu      sync.Mutex
	pending []tagged
	toolAt  map[string]int // index in pending of a tool's latest update
	run     uint64         // runs seen: the envelope id
	notices []runner.Notice

	wake, urgent   chan struct{}
	stopCh, done   chan struct{}
	unsubscribe    func()
	unsubscribeNts func()
}

type tagged struct {
	run uint64
	ev  agent.Event
	// loaded is the snapshot of a session the runtime switched to: sent as
	// a msgs.SessionLoadedMsg between the events before and after it.
	loaded *msgs.SessionLoadedMsg
}

// startBridge subscribes to src and starts the pump; send is the program's
// Send and clock times the interval. Call stop before the program's output
// goes away.
func startBridge(src Events, send func(tea.Msg), interval time.Duration, clock screen.Clock) *bridge {
	b := &bridge{
		send: send, interval: interval, clock: clock, toolAt: map[string]int{},
		wake: make(chan struct{}, 1), urgent: make(chan struct{}, 1),
		stopCh: make(chan struct{}), done: make(chan struct{}),
	}
	b.unsubscribe = src.Subscribe(b.receive)
	b.unsubscribeNts = src.SubscribeNotices(b.notice)
	go b.pump()
	return b
}

// notice is the runtime's notice subscriber: quick, never blocking.
func (b *bridge) notice(n runner.Notice) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.notices = append(b.notices, n)
	signal(b.wake)
	signal(b.urgent)
}

// receive is the runtime subscriber: quick, never blocking.
func (b *bridge) receive(ev agent.Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := ev.(agent.AgentStart); ok {
		b.run++
	}
	t := tagged{run: b.run, ev: ev}
	urgent := false
	if a, ok := ev.(agent.Annotation); ok && a.Kind == runner.AnnotationSessionLoaded {
		if data, ok := a.Data.(runner.SessionLoaded); ok {
			t.loaded = loadedMsg(data)
			b.toolAt = map[string]int{} // no update merges across the switch
		}
	}
	switch e := ev.(type) {
	case agent.MessageUpdate:
		if n := len(b.pending); n > 0 && isDelta(e) && isDeltaEvent(b.pending[n-1].ev) {
			b.pending[n-1] = t // the newer snapshot holds everything the older one did
		} else {
			b.pending = append(b.pending, t)
			urgent = !isDelta(e)
		}
	case agent.ToolExecutionUpdate:
		if i, ok := b.toolAt[e.ToolCallID]; ok {
			b.pending[i] = t // output so far, not a delta: the latest is enough
		} else {
			b.toolAt[e.ToolCallID] = len(b.pending)
			b.pending = append(b.pending, t)
		}
	default:
		if end, ok := ev.(agent.ToolExecutionEnd); ok {
			delete(b.toolAt, end.ToolCallID)
		}
		b.pending = append(b.pending, t)
		urgent = true
	}
	signal(b.wake)
	if urgent {
		signal(b.urgent)
	}
}

func isDelta(e agent.MessageUpdate) bool {
	switch e.Event.Type {
	case agent.EventTextDelta, agent.EventThinkingDelta, agent.EventToolCallDelta:
		return true
	}
	return false
}

func isDeltaEvent(ev agent.Event) bool {
	u, ok := ev.(agent.MessageUpdate)
	return ok && isDelta(u)
}

func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// drain takes back a signal that the buffer no longer stands behind.
func drain(ch chan struct{}) {
	select {
	case <-ch:
	default:
	}
}

// pump flushes the buffer: at once for urgent events, else after interval.
func (b *bridge) pump() {
	defer close(b.done)
	var last time.Time
	for {
		urgent := false
		select {
		case <-b.stopCh:
			return
		case <-b.wake:
		case <-b.urgent:
			urgent = true
		}
		select {
		case <-b.urgent:
			urgent = true
		default:
		}
		if wait := b.interval - b.clock.Now().Sub(last); wait > 0 && !urgent {
			due := make(chan struct{})
			timer := b.clock.AfterFunc(wait, func() { close(due) })
			select {
			case <-due:
			case <-b.urgent:
				timer.Stop()
			case <-b.stopCh:
				timer.Stop()
				return
			}
		}
		last = b.clock.Now()
		for _, msg := range b.take() {
			b.send(msg)
		}
	}
}

// take empties the buffer into one envelope per run, a session snapshot
// where the runtime switched sessions, and then the notices; the signals
// that announced them go with them.
func (b *bridge) take() []tea.Msg {
	b.mu.Lock()
	pending, notices := b.pending, b.notices
	b.pending, b.toolAt, b.notices = nil, map[string]int{}, nil
	drain(b.wake)
	drain(b.urgent)
	b.mu.Unlock()
	var out []tea.Msg
	for _, t := range pending {
		if t.loaded != nil {
			out = append(out, *t.loaded)
			continue
		}
		if n := len(out); n > 0 {
			if last, ok := out[n-1].(msgs.RunEventMsg); ok && last.RunID == t.run {
				last.Events = append(last.Events, t.ev)
				out[n-1] = last
				continue
			}
		}
		out = append(out, msgs.RunEventMsg{RunID: t.run, Events: []agent.Event{t.ev}})
	}
	for _, n := range notices {
		out = append(out, msgs.NoticeArrivedMsg{Notice: n})
	}
	return out
}

// loadedMsg is the snapshot a runner.Host announces after a switch.
func loadedMsg(l runner.SessionLoaded) *msgs.SessionLoadedMsg {
	st := l.State
	return &msgs.SessionLoadedMsg{
		SessionID: st.SessionID, Earlier: st.Earlier, EarlierSaved: st.EarlierSaved, Messages: st.Messages, Queue: st.Queue,
		Todo: st.Todo, Approval: st.Approval, PlanFile: st.PlanFile,
		Streaming: st.Streaming,
		Model:     st.Model, Thinking: st.Thinking, Running: st.Running,
		PersistError: st.PersistError, Approvals: l.Approvals, Switched: true, RunStarted: st.RunStarted,
		Stalled:   st.Stalled,
		Subagents: l.Subagents, Subagent: l.Subagent,
	}
}

// stop unsubscribes and ends the pump; events not yet sent are dropped.
func (b *bridge) stop() {
	b.unsubscribe()
	b.unsubscribeNts()
	close(b.stopCh)
	<-b.done
}
