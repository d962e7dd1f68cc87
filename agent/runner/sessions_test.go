package runner

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/persistence"
)

func openStore(t *testing.T, dir string) *persistence.Store {
	t.Helper()
	store, err := persistence.Open(dir, persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return store
}

func newRuntime(t *testing.T, store *persistence.Store, script *agenttest.Script, opts Options) *Runtime {
	t.Helper()
	opts.Providers = []Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: script.Stream}}
	if opts.Workspace == "" {
		opts.Workspace = "/ws"
	}
	opts.Store, opts.Now = store, agenttest.Clock
	rt, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	stopOnCleanup(t, rt)
	return rt
}

func waitIdle(t *testing.T, rt *Runtime) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := rt.WaitForIdle(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestSessionSurvivesARestart saves a run and a queued input, closes the
// store, and resumes with Continue: the transcript and the queue come back.
func TestSessionSurvivesARestart(t *testing.T) {
	dir := t.TempDir()
	store := openStore(t, dir)
	release := make(chan struct{})
	rt := newRuntime(t, store, agenttest.NewScript(agenttest.Reply().Wait(release).Text("answer").Stop(agent.StopReasonStop)), Options{})
	if err := rt.Prompt(context.Background(), "first"); err != nil {
		t.Fatal(err)
	}
	rt.Abort() // leaves the aborted marker; nothing is running afterwards
	close(release)
	waitIdle(t, rt)
	it, queued, err := rt.FollowUp(context.Background(), "later")
	if err != nil || queued {
		t.Fatalf("FollowUp while idle = %v, %v; want a run started", queued, err)
	}
	waitIdle(t, rt)
	stay := rt.agent.Enqueue(agent.QueueItem{Kind: agent.QueueSteer, Text: "never sent"})
	if err := store.AddPendingInput(context.Background(), rt.SessionID(), stay); err != nil {
		t.Fatal(err)
	}
	id := rt.SessionID()
	want := len(rt.State().Messages)
	store.Close()

	store = openStore(t, dir)
	defer store.Close()
	resumed := newRuntime(t, store, agenttest.NewScript(), Options{Continue: true})
	st := resumed.State()
	if st.SessionID != id || len(st.Messages) != want {
		t.Fatalf("resumed session %s with %d messages; want %s with %d", st.SessionID, len(st.Messages), id, want)
	}
	if len(st.Queue) != 1 || st.Queue[0].ID != stay.ID {
		t.Fatalf("resumed queue = %+v, want the pending item", st.Queue)
	}
	if texts := userTexts(st.Messages); len(texts) != 2 || texts[1] != it.Text {
		t.Fatalf("user messages = %v", texts)
	}
}

func TestDequeueForgetsTheSavedInput(t *testing.T) {
	store := openStore(t, t.TempDir())
	defer store.Close()
	release := make(chan struct{})
	rt := newRuntime(t, store, agenttest.NewScript(
		agenttest.Reply().Wait(release).Text("ok").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("ok").Stop(agent.StopReasonStop),
	), Options{})
	stored := make(chan struct{})
	var once sync.Once
	rt.Subscribe(func(ev agent.Event) {
		if e, ok := ev.(agent.MessageEnd); ok && e.Message.Role == agent.RoleUser {
			once.Do(func() { close(stored) })
		}
	})
	if err := rt.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	<-stored                                                      // the prompt's own pending input is retired with its message…
	if err := rt.writes.flush(context.Background()); err != nil { // …once that is saved
		t.Fatal(err)
	}
	it, queued, err := rt.Steer(context.Background(), "take me back")
	if err != nil || !queued {
		t.Fatalf("Steer during a run = %v, %v", queued, err)
	}
	ctx := context.Background()
	if pending, _ := store.PendingInputs(ctx, rt.SessionID()); len(pending) != 1 {
		t.Fatalf("%d pending inputs saved, want the steering item", len(pending))
	}
	if _, err := rt.Dequeue(context.Background(), it.ID); err != nil {
		t.Fatal(err)
	}
	if pending, _ := store.PendingInputs(ctx, rt.SessionID()); len(pending) != 0 {
		t.Fatalf("pending inputs after Dequeue = %+v", pending)
	}
	close(release)
	waitIdle(t, rt)
}

func TestSwitchAndListSessions(t *testing.T) {
	store := openStore(t, t.TempDir())
	defer store.Close()
	rt := newRuntime(t, store, agenttest.NewScript(
		agenttest.Reply().Text("one").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("two").Stop(agent.StopReasonStop),
	), Options{})
	if err := rt.Prompt(context.Background(), "first session"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	first := rt.SessionID()
	if err := rt.NewSession(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := rt.Prompt(context.Background(), "second session"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	list, err := rt.ListSessions(context.Background())
	if err != nil || len(list) != 2 {
		t.Fatalf("ListSessions = %+v, %v", list, err)
	}
	if err := rt.SwitchSession(context.Background(), first); err != nil {
		t.Fatal(err)
	}
	if texts := userTexts(rt.State().Messages); len(texts) != 1 || texts[0] != "first session" {
		t.Fatalf("after switching back: %v", texts)
	}
	if err := rt.SwitchSession(context.Background(), "s_nope"); err == nil {
		t.Fatal("switching to an unknown session succeeded")
	}
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

// TestSessionByIDWorksInItsWorkspace: resuming a session by id from another
// directory works in the session's workspace, tools included.
func TestSessionByIDWorksInItsWorkspace(t *testing.T) {
	store := openStore(t, t.TempDir())
	defer store.Close()
	rt := newRuntime(t, store, agenttest.NewScript(agenttest.Reply().Text("ok").Stop(agent.StopReasonStop)), Options{})
	if err := rt.Prompt(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	id := rt.SessionID()

	var builtFor []string
	opts := Options{
		Session: id, Workspace: "/elsewhere",
		ToolsFor:  func(ws string) []agent.Tool { builtFor = append(builtFor, ws); return nil },
		Providers: []Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: agenttest.NewScript().Stream}},
		Store:     store, Now: agenttest.Clock,
	}
	again, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if again.Workspace() != "/ws" || fmt.Sprint(builtFor) != "[/ws]" {
		t.Fatalf("workspace %q, tools built for %v; want the session's /ws", again.Workspace(), builtFor)
	}
}

// TestResumedSessionKeepsAUsableModel: a session saved on a model whose key
// is no longer set resumes on the current model instead of one that would
// send requests without a key.
func TestResumedSessionKeepsAUsableModel(t *testing.T) {
	store := openStore(t, t.TempDir())
	defer store.Close()
	cloud := agent.Model{Provider: "cloud", ID: "big", API: "test"}
	providers := func(unusable string) []Provider {
		return []Provider{
			{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: agenttest.NewScript().Stream},
			{Name: "cloud", Models: []agent.Model{cloud}, Unusable: unusable,
				Stream: agenttest.NewScript(agenttest.Reply().Text("ok").Stop(agent.StopReasonStop)).Stream},
		}
	}
	rt, err := New(context.Background(), Options{Providers: providers(""), Model: "cloud/big", Store: store, Workspace: "/ws", Now: agenttest.Clock})
	if err != nil {
		t.Fatal(err)
	}
	if err := rt.Prompt(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)

	again, err := New(context.Background(), Options{Providers: providers("CLOUD_KEY is not set"), Session: rt.SessionID(),
		Store: store, Workspace: "/ws", Now: agenttest.Clock})
	if err != nil {
		t.Fatal(err)
	}
	if got := again.State().Model.Ref(); got != agenttest.Model.Ref() {
		t.Fatalf("resumed on %s, want the usable %s", got, agenttest.Model.Ref())
	}
}

// TestElsewhere: a listing names the live owner of a session, unless it is
// none or this runtime's current session.
func TestElsewhere(t *testing.T) {
	tests := []struct {
		name    string
		owner   persistence.Owner
		current bool
		want    string
	}{
		{"no owner", persistence.Owner{}, false, ""},
		{"this runtime's session", persistence.Owner{PID: 42, Host: "box"}, true, ""},
		{"another process here", persistence.Owner{PID: 42}, false, "pid 42"},
		{"another machine's", persistence.Owner{PID: 42, Host: "box"}, false, "pid 42 on box"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := elsewhere(tt.owner, tt.current); got != tt.want {
				t.Errorf("elsewhere = %q, want %q", got, tt.want)
			}
		})
	}
}
