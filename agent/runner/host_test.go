package runner

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/lanes"
	"github.com/steer-tui/steer/persistence"
)

// waitAsked waits until prompt's request reached the provider: its run has
// stored the prompt and holds its lanes.
func waitAsked(t *testing.T, answers *agenttest.Gates, prompt string) {
	t.Helper()
	within(t, answers.Asked(prompt), "the request of "+prompt)
}

// hostEvents records what a host's subscriber gets.
type hostEvents struct {
	mu     sync.Mutex
	events []agent.Event
	idle   chan struct{} // closed when the background list turns empty
	once   sync.Once
}

func (e *hostEvents) record(ev agent.Event) {
	e.mu.Lock()
	e.events = append(e.events, ev)
	e.mu.Unlock()
	if a, ok := ev.(agent.Annotation); ok && a.Kind == AnnotationBackgroundRuns && len(a.Data.([]BackgroundRun)) == 0 {
		e.once.Do(func() { close(e.idle) })
	}
}

// since returns the events after the last session_loaded of session id.
func (e *hostEvents) since(id string) []agent.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	for i := len(e.events) - 1; i >= 0; i-- {
		if a, ok := e.events[i].(agent.Annotation); ok && a.Kind == AnnotationSessionLoaded && a.Data.(SessionLoaded).State.SessionID == id {
			return append([]agent.Event(nil), e.events[i:]...)
		}
	}
	return nil
}

func newHost(t *testing.T, store *persistence.Store, answers *agenttest.Gates, maxConcurrent int) (*Host, *hostEvents) {
	t.Helper()
	h := startHost(t, Options{
		Providers: []Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: answers.Stream}},
		Store:     store, Workspace: "/ws", Now: agenttest.Clock, MaxConcurrent: maxConcurrent,
	})
	rec := &hostEvents{idle: make(chan struct{})}
	h.Subscribe(rec.record)
	return h, rec
}

// startHost is a host over a runtime made with opts; it is closed when the
// test ends, before the store it saves to (see storeFor).
func startHost(t *testing.T, opts Options) *Host {
	t.Helper()
	rt, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	h := NewHost(rt)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		h.AbortWith(AbortQuit)
		_ = h.WaitForIdle(ctx)
		_ = h.Close(ctx)
	})
	return h
}

// storeFor opens the store of dir, closed when the test ends (after the
// hosts made later, as cleanups run last first).
func storeFor(t *testing.T, dir string) *persistence.Store {
	t.Helper()
	store := openStore(t, dir)
	t.Cleanup(func() { store.Close() })
	return store
}

func within(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
}

func texts(events []agent.Event) string {
	var b strings.Builder
	for _, ev := range events {
		if e, ok := ev.(agent.MessageEnd); ok {
			b.WriteString(e.Message.TextContent() + "|")
		}
	}
	return b.String()
}

// TestHostRunsTwoSessionsAtOnce: a run goes on in the background while the
// user starts another session and runs there; Esc aborts only the current
// run; the background run's events are saved, not shown, and its session
// is let go when it ends.
func TestHostRunsTwoSessionsAtOnce(t *testing.T) {
	dir := t.TempDir()
	store := storeFor(t, dir)
	answers := &agenttest.Gates{}
	h, rec := newHost(t, store, answers, 0)
	var allMu sync.Mutex
	ended := map[string][]string{} // session → its messages, from SubscribeAll
	h.SubscribeAll(func(id string, ev agent.Event) {
		if e, ok := ev.(agent.MessageEnd); ok {
			allMu.Lock()
			ended[id] = append(ended[id], e.Message.TextContent())
			allMu.Unlock()
		}
	})
	if err := h.Prompt(context.Background(), "first"); err != nil {
		t.Fatal(err)
	}
	first := h.Current()
	firstID := h.SessionID()

	if err := h.NewSession(context.Background()); err != nil {
		t.Fatalf("NewSession while a run is active: %v", err)
	}
	if h.SessionID() == firstID || h.State().Running {
		t.Fatalf("after NewSession: session %s running %v; want a new idle one", h.SessionID(), h.State().Running)
	}
	bg := h.Background()
	if len(bg) != 1 || bg[0].SessionID != firstID || bg[0].Title != "first" {
		t.Fatalf("Background() = %+v, want the first session", bg)
	}
	if err := h.Prompt(context.Background(), "second"); err != nil {
		t.Fatal(err)
	}
	secondID := h.SessionID()
	if !first.agent.Running() || !h.State().Running {
		t.Fatal("both sessions should be running")
	}

	h.Abort() // Esc in the second session
	waitIdle(t, h.Current())
	if !first.agent.Running() {
		t.Fatal("aborting the current session stopped the one in the background")
	}
	answers.Open("first")
	within(t, rec.idle, "the background run to end")

	ctx := context.Background()
	saved, err := store.LoadTranscript(ctx, firstID)
	if err != nil {
		t.Fatal(err)
	}
	if got := transcriptText(saved); got != "first|answer to first|" {
		t.Errorf("background session saved %q", got)
	}
	if got := texts(rec.since(secondID)); strings.Contains(got, "answer to first") {
		t.Errorf("the background session's events reached the current session's subscribers: %q", got)
	}
	allMu.Lock()
	if got := strings.Join(ended[firstID], "|"); got != "first|answer to first" {
		t.Errorf("SubscribeAll saw %q of the background session", got)
	}
	if got := ended[secondID]; len(got) == 0 || got[0] != "second" {
		t.Errorf("SubscribeAll saw %q of the current session", got)
	}
	allMu.Unlock()
	runs, err := store.ListRuns(ctx, persistence.RunsOptions{SessionID: firstID})
	if err != nil || len(runs) == 0 || runs[0].Outcome != OutcomeCompleted {
		t.Errorf("first session's runs = %+v, %v; want a completed run", runs, err)
	}
	runs, err = store.ListRuns(ctx, persistence.RunsOptions{SessionID: secondID})
	if err != nil || len(runs) == 0 || runs[0].Outcome != OutcomeCancelled {
		t.Errorf("second session's runs = %+v, %v; want a cancelled run", runs, err)
	}
	// Let go when its run ended: another process may open it now.
	other := openStore(t, dir)
	defer other.Close()
	claim, err := other.ClaimSession(ctx, firstID)
	if err != nil {
		t.Fatalf("the finished background session is still held: %v", err)
	}
	if err := claim.Release(ctx); err != nil {
		t.Fatal(err)
	}

	if err := h.SwitchSession(ctx, firstID); err != nil {
		t.Fatal(err)
	}
	if got := transcriptText(h.State().Messages); got != "first|answer to first|" {
		t.Errorf("switched back to %q", got)
	}
}

// TestHostSwitchesBackToARunningSession: switching back to a session that
// still runs shows it as it stands, then its events, none twice.
func TestHostSwitchesBackToARunningSession(t *testing.T) {
	store := storeFor(t, t.TempDir())
	answers := &agenttest.Gates{}
	h, rec := newHost(t, store, answers, 0)
	if err := h.Prompt(context.Background(), "first"); err != nil {
		t.Fatal(err)
	}
	firstID := h.SessionID()
	waitAsked(t, answers, "first")
	if err := h.NewSession(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := h.SwitchSession(context.Background(), firstID); err != nil {
		t.Fatal(err)
	}
	if len(h.Background()) != 0 {
		t.Errorf("the idle session left behind is in the background: %+v", h.Background())
	}
	after := rec.since(firstID)
	loaded := after[0].(agent.Annotation).Data.(SessionLoaded)
	if !loaded.State.Running || transcriptText(loaded.State.Messages) != "first|" {
		t.Fatalf("snapshot running %v with %q; want the running first session", loaded.State.Running, transcriptText(loaded.State.Messages))
	}
	answers.Open("first")
	waitIdle(t, h.Current())
	if got := texts(rec.since(firstID)); got != "answer to first|" {
		t.Errorf("events after the snapshot: %q, want the answer once", got)
	}
}

// TestHostSessionsShareTheGlobalLane: with maxConcurrent 1 the second
// session's run waits for the first's, across the host's runtimes.
func TestHostSessionsShareTheGlobalLane(t *testing.T) {
	store := storeFor(t, t.TempDir())
	answers := &agenttest.Gates{}
	h, _ := newHost(t, store, answers, 1)
	if err := h.Prompt(context.Background(), "first"); err != nil {
		t.Fatal(err)
	}
	sched := h.first.sched
	waitLanes(t, sched, func(s lanes.Snapshot) bool { return len(globalLane(s).Running) == 1 })
	if err := h.NewSession(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := h.Prompt(context.Background(), "second"); err != nil {
		t.Fatal(err)
	}
	waitLanes(t, sched, func(s lanes.Snapshot) bool { return len(globalLane(s).Waiting) == 1 })
	answers.Open("first")
	answers.Open("second")
	waitIdle(t, h.Current())
	if got := transcriptText(h.State().Messages); got != "second|answer to second|" {
		t.Errorf("second session: %q", got)
	}
}

func globalLane(s lanes.Snapshot) lanes.Lane {
	for _, l := range s.Lanes {
		if l.Name == lanes.GlobalLane {
			return l
		}
	}
	return lanes.Lane{}
}

func waitLanes(t *testing.T, s *lanes.Scheduler, cond func(lanes.Snapshot) bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for !cond(s.Snapshot()) {
		select {
		case <-s.Changes():
		case <-deadline:
			t.Fatalf("lanes never got there: %+v", s.Snapshot())
		}
	}
}

func transcriptText(msgs []agent.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		b.WriteString(m.TextContent() + "|")
	}
	return b.String()
}

// TestManualCompactionWaitsInTheLanes: /compact asks the model, so it takes
// the lanes like a run (trigger manual): with maxConcurrent 1 it waits for
// another session's run, and Esc while it waits abandons it.
func TestManualCompactionWaitsInTheLanes(t *testing.T) {
	store := storeFor(t, t.TempDir())
	answers := &agenttest.Gates{}
	h, _ := newHost(t, store, answers, 1)
	if err := h.Prompt(context.Background(), "first"); err != nil {
		t.Fatal(err)
	}
	waitAsked(t, answers, "first")
	if err := h.NewSession(context.Background()); err != nil {
		t.Fatal(err)
	}
	sched := h.first.sched
	for _, cancelIt := range []bool{true, false} {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := h.Compact(ctx, "")
			done <- err
		}()
		waitLanes(t, sched, func(s lanes.Snapshot) bool {
			w := globalLane(s).Waiting
			return len(w) == 1 && w[0].Trigger == triggerManual && w[0].Priority == lanes.Foreground
		})
		if cancelIt {
			cancel()
			if err := <-done; err == nil {
				t.Fatal("a compaction cancelled while it waited reported success")
			}
			continue
		}
		answers.Open("first")
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "nothing to compact") {
				t.Errorf("compaction of an empty session: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the compaction never left the lanes")
		}
		cancel()
	}
}

// TestHostWithoutAStoreKeepsTheRunOnScreen: without a state directory a run
// could not be found again in the background, so a new session is refused
// while it runs.
func TestHostWithoutAStoreKeepsTheRunOnScreen(t *testing.T) {
	answers := &agenttest.Gates{}
	h, _ := newHost(t, nil, answers, 0)
	if err := h.Prompt(context.Background(), "first"); err != nil {
		t.Fatal(err)
	}
	if err := h.NewSession(context.Background()); err == nil || !strings.Contains(err.Error(), "without a state directory") {
		t.Fatalf("NewSession while running without a store: %v", err)
	}
	if !h.State().Running || len(h.Background()) != 0 {
		t.Fatal("the run left the screen")
	}
	answers.Open("first")
	waitIdle(t, h.Current())
}

// TestHostNewSessionStaysInTheWorkspace: steer started on a session of
// another workspace makes its new sessions there, also while a run goes on.
func TestHostNewSessionStaysInTheWorkspace(t *testing.T) {
	store := storeFor(t, t.TempDir())
	ctx := context.Background()
	if err := store.CreateSession(ctx, persistence.Session{ID: "s_other", Workspace: "/ws2", Created: agenttest.Epoch, Updated: agenttest.Epoch}); err != nil {
		t.Fatal(err)
	}
	answers := &agenttest.Gates{}
	h := startHost(t, Options{
		Providers: []Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: answers.Stream}},
		Store:     store, Workspace: "/ws", Now: agenttest.Clock, Session: "s_other",
	})
	if err := h.Prompt(context.Background(), "first"); err != nil {
		t.Fatal(err)
	}
	if err := h.NewSession(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := h.Workspace(); got != "/ws2" {
		t.Errorf("a new session while running works in %s, want /ws2", got)
	}
	answers.Open("first")
}

// TestHostDequeueInNamesTheSession: taking a session's queue back never
// takes another's: a session let go answers with an error.
func TestHostDequeueInNamesTheSession(t *testing.T) {
	store := storeFor(t, t.TempDir())
	answers := &agenttest.Gates{}
	h, rec := newHost(t, store, answers, 0)
	if err := h.Prompt(context.Background(), "first"); err != nil {
		t.Fatal(err)
	}
	firstID := h.SessionID()
	if _, queued, err := h.FollowUp(context.Background(), "later"); err != nil || !queued {
		t.Fatalf("FollowUp = %v, %v", queued, err)
	}
	if err := h.NewSession(context.Background()); err != nil {
		t.Fatal(err)
	}
	newID := h.SessionID()
	if items, err := h.DequeueIn(context.Background(), newID, ""); err != nil || len(items) != 0 {
		t.Errorf("the new session's queue: %+v, %v", items, err)
	}
	items, err := h.DequeueIn(context.Background(), firstID, "")
	if err != nil || len(items) != 1 || items[0].Text != "later" {
		t.Errorf("the background session's queue: %+v, %v", items, err)
	}
	h.AbortSession(firstID)
	within(t, rec.idle, "the first session to be let go")
	if _, err := h.DequeueIn(context.Background(), firstID, ""); err == nil {
		t.Error("a session let go still gave its queue")
	}
}

// TestHostReadsAnswerWhileASwitchLoads: a switch holds h.switchMu across
// the database IO of opening a session, never h.mu, so the front end's
// reads (the current session, the background badge, input) answer while a
// session loads.
func TestHostReadsAnswerWhileASwitchLoads(t *testing.T) {
	h, _ := newHost(t, storeFor(t, t.TempDir()), &agenttest.Gates{}, 0)
	opening, release := make(chan struct{}), make(chan struct{})
	switched := make(chan error, 1)
	go func() {
		h.switchMu.Lock()
		defer h.switchMu.Unlock()
		_, err := h.spare(context.Background(), "/ws", nil, func(*Options) {
			close(opening)
			<-release // the load a slow disk makes wait
		})
		switched <- err
	}()
	within(t, opening, "the switch to start loading")
	answered := make(chan struct{})
	go func() {
		_ = h.Current()
		_ = h.Background()
		_, _ = h.input()
		close(answered)
	}()
	within(t, answered, "the host's reads while a switch loads")
	close(release)
	if err := <-switched; err != nil {
		t.Fatal(err)
	}
}
