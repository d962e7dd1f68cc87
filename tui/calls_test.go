package tui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/msgs"
)

func TestCallsRunInOrderAndReplyWithTheirIDs(t *testing.T) {
	c := newCalls()
	var mu sync.Mutex
	var ran []int
	ids := map[uint64]int{}
	for i := 0; i < 50; i++ {
		ids[c.submit(call{run: func() tea.Msg {
			mu.Lock()
			ran = append(ran, i)
			mu.Unlock()
			return i
		}})] = i
	}
	replies := make(chan tea.Msg, 100)
	c.start(func(msg tea.Msg) { replies <- msg })
	defer c.stop(time.Second)
	for i := 0; i < 50; i++ {
		r := (<-replies).(callDoneMsg)
		if r.msg != i || ids[r.id] != i {
			t.Fatalf("reply %d = %+v, want call %d's", i, r, i)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for i, v := range ran {
		if v != i {
			t.Fatalf("ran %v, not in submission order", ran)
		}
	}
}

func TestCallsStopReportsWhatNeverRan(t *testing.T) {
	c := newCalls()
	replies := make(chan tea.Msg, 10)
	c.submit(call{unsent: "first", last: true, run: func() tea.Msg { return "quit" }})
	c.submit(call{unsent: "typed after quitting", run: func() tea.Msg { t.Error("a call after the last ran"); return nil }})
	c.start(func(msg tea.Msg) { replies <- msg })
	if r := (<-replies).(callDoneMsg); r.msg != "quit" {
		t.Fatalf("reply %+v", r)
	}
	if got := c.stop(time.Second); len(got) != 1 || got[0] != "typed after quitting" {
		t.Fatalf("unsent = %q", got)
	}
	c.submit(call{unsent: "after stop", run: func() tea.Msg { return nil }})
	if got := c.stop(time.Second); len(got) != 1 || got[0] != "after stop" {
		t.Fatalf("unsent after stop = %q", got)
	}
}

// TestCallsThatWaitHoldUpNoOtherLane: a detached call that waits (a
// /compact) holds up no later call, and an ordered call that waits (an input
// behind the compaction) holds up no read (/profiles); each reply comes while
// the waiting calls still wait.
func TestCallsThatWaitHoldUpNoOtherLane(t *testing.T) {
	for _, tc := range []struct {
		name    string
		waiting call
		next    call
	}{
		{"detached, then ordered", call{detached: true}, call{}},
		{"detached, then a read", call{detached: true}, call{topic: topicInspect}},
		{"ordered, then a read", call{}, call{topic: topicInspect}},
		{"ordered, then a picker", call{}, call{topic: topicPicker}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCalls()
			release := make(chan struct{})
			tc.waiting.run = func() tea.Msg { <-release; return "waited" }
			tc.next.run = func() tea.Msg { return "next" }
			replies := make(chan tea.Msg, 2)
			c.start(func(msg tea.Msg) { replies <- msg })
			defer c.stop(time.Second)
			c.submit(tc.waiting)
			c.submit(tc.next)
			if r := (<-replies).(callDoneMsg); r.msg != "next" {
				t.Fatalf("first reply %+v, want the next call's", r)
			}
			close(release)
			if r := (<-replies).(callDoneMsg); r.msg != "waited" {
				t.Fatalf("second reply %+v, want the waiting call's", r)
			}
		})
	}
}

// recorder is a runtime that records the inputs it is given, in the order
// it is given them, each after a delay that shrinks: a later call that
// overtook an earlier one would show.
type recorder struct {
	Runtime
	mu   sync.Mutex
	sent []string
}

func (r *recorder) record(kind, text string) {
	time.Sleep(time.Duration(len(text)%3) * time.Millisecond)
	r.mu.Lock()
	r.sent = append(r.sent, kind+":"+text)
	r.mu.Unlock()
}

func (r *recorder) Steer(ctx context.Context, text string, images ...agent.Content) (agent.QueueItem, bool, error) {
	r.record("steer", text)
	return r.Runtime.Steer(ctx, text, images...)
}

func (r *recorder) FollowUp(ctx context.Context, text string, images ...agent.Content) (agent.QueueItem, bool, error) {
	r.record("follow", text)
	return r.Runtime.FollowUp(ctx, text, images...)
}

func (r *recorder) inputs() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.sent...)
}

func TestQuickEntersReachTheRuntimeInOrder(t *testing.T) {
	h, probe := runWithGate(t)
	defer close(probe.release)
	rec := &recorder{Runtime: h.m.rt}
	h.m.rt = rec
	var want []string
	for i := 0; i < 20; i++ {
		text := fmt.Sprintf("note %d%s", i, strings.Repeat("!", i%3))
		h.typeText(text)
		if i%2 == 0 {
			h.key(tea.KeyEnter, false)
			want = append(want, "steer:"+text)
		} else {
			h.key(tea.KeyEnter, true)
			want = append(want, "follow:"+text)
		}
	}
	h.waitFor("every input queued", func(m Model) bool { return len(m.queue.Items()) == 20 })
	if got := rec.inputs(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("the runtime got\n%q\nwant\n%q", got, want)
	}
	// The queue delivers steering before follow-ups, each kind in order.
	var steers, follows, queued []string
	for _, w := range want {
		if kind, text, _ := strings.Cut(w, ":"); kind == "steer" {
			steers = append(steers, text)
		} else {
			follows = append(follows, text)
		}
	}
	for _, it := range h.m.queue.Items() {
		queued = append(queued, it.Text)
	}
	if got, want := strings.Join(queued, "|"), strings.Join(append(steers, follows...), "|"); got != want {
		t.Fatalf("queue = %s, want %s", got, want)
	}
}

// TestDroppedRequestDoesNotBlockLaterOnes makes requests whose Update
// results are thrown away, as a handler that drops a model or a Cmd would:
// later requests must still reach the runtime.
func TestDroppedRequestDoesNotBlockLaterOnes(t *testing.T) {
	rt := newRuntime(t, nil, reply("Answered."))
	h := newHarness(t, rt, 80, 24)
	_, _ = h.m.handleOpenModels()
	_, _ = h.m.handleSetThinking(agent.ThinkingHigh)
	h.typeText("still heard")
	h.key(tea.KeyEnter, false)
	h.waitView("❯ still heard", "Answered.")
	if got := rt.State().Thinking; got != agent.ThinkingHigh {
		t.Fatalf("the dropped request did not run either: thinking %q", got)
	}
}

// gatedSessions is a SessionBrowser whose switch to "s_slow" waits for
// release, and whose switch to "s_bad" fails.
type gatedSessions struct {
	fakeSessions
	release chan struct{}
}

func (g *gatedSessions) SwitchSession(ctx context.Context, id string) error {
	switch id {
	case "s_slow":
		<-g.release
	case "s_bad":
		return fmt.Errorf("database is locked")
	}
	return g.fakeSessions.SwitchSession(ctx, id)
}

// TestStaleSessionReplyIsDropped resumes a slow session, then another one
// before the first has loaded: the first's transcript must never be shown.
func TestStaleSessionReplyIsDropped(t *testing.T) {
	g := &gatedSessions{release: make(chan struct{})}
	h := newHarness(t, newRuntime(t, nil), 80, 24, func(o *Options) { o.Sessions = g })
	h.send(msgs.ResumeSessionMsg{ID: "s_slow", Title: "slow one"})
	h.send(msgs.ResumeSessionMsg{ID: "s_bad", Title: "bad one"})
	close(g.release)
	h.waitFor("the failure", func(m Model) bool { return strings.Contains(m.status.View(), "database is locked") })
	h.settle()
	if v := h.m.chat.View(); strings.Contains(v, "resumed: slow one") {
		t.Fatalf("the stale reply was shown:\n%s", v)
	}
	if got := g.calls(); strings.Join(got, ",") != "s_slow" {
		t.Fatalf("switched %v", got)
	}
}

// reply is a response that answers text and stops.
func reply(text string) *agenttest.Response {
	return agenttest.Reply().Text(text).Stop(agent.StopReasonStop)
}

// TestRefusedInputComesBackToTheEditor: text the runtime refuses (here, over
// the input limit) is not lost: it returns to the editor with the reason.
func TestRefusedInputComesBackToTheEditor(t *testing.T) {
	script := agenttest.NewScript()
	rt, err := runner.New(context.Background(), runner.Options{
		Providers:     []runner.Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: script.Stream}},
		Now:           agenttest.Clock,
		MaxInputBytes: 16,
	})
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, rt, 200, 24)
	h.typeText("far more than sixteen bytes")
	h.key(tea.KeyEnter, false)
	h.waitFor("the text back", func(m Model) bool { return m.input.Value() == "far more than sixteen bytes" })
	if v := h.m.status.View(); !strings.Contains(v, "not sent: the input is") || !strings.Contains(v, "the text is back in the editor") ||
		strings.Contains(v, "queued item") {
		t.Fatalf("status = %q, want the reason and no queued item: nothing was queued", v)
	}
	if k := h.m.input.Holding(); k != "" || strings.Contains(h.m.View(), "re-sends it as") {
		t.Fatalf("the editor holds a taken-back %q item; nothing was queued:\n%s", k, h.m.View())
	}
}
