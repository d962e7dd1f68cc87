package lanes

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

func TestSnapshotOfIdleLanesHasEmptyArrays(t *testing.T) {
	h := newHarness(t, Options{MaxConcurrent: 2})
	b, err := json.Marshal(h.s.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"taken":"2026-01-02T03:04:05Z","lanes":[` +
		`{"name":"global","kind":"global","cap":2,"running":[],"waiting":[]},` +
		`{"name":"subagent","kind":"subagent","cap":8,"running":[],"waiting":[]}]}`
	if string(b) != want {
		t.Fatalf("JSON\n got %s\nwant %s", b, want)
	}
}

func TestSnapshotSaysWhoRunsAndWaitsSinceWhen(t *testing.T) {
	h := newHarness(t, Options{MaxConcurrent: 1})
	a := h.enter(Request{ID: "a", Session: "s2", Trigger: "user"})
	h.clock.Advance(time.Second)
	b := h.enterAsync(context.Background(), Request{ID: "b", Session: "s1", Trigger: "cron"})
	h.waitUntil("b waiting", waiting(GlobalLane, "b"))
	h.clock.Advance(time.Second)
	c := h.enterAsync(context.Background(), Request{ID: "c", Session: "s1", Trigger: "rpc"})
	h.waitUntil("c waiting", waiting("session:s1", "c"))
	h.clock.Advance(time.Second)

	at := func(s int) time.Time { return epoch.Add(time.Duration(s) * time.Second) }
	ea := Entry{ID: "a", Session: "s2", Trigger: "user", Priority: Foreground, Enqueued: at(0), Started: at(0)}
	want := Snapshot{Taken: at(3), Lanes: []Lane{
		{Name: "global", Kind: KindGlobal, Cap: 1, Running: []Entry{ea},
			Waiting: []Entry{{ID: "b", Session: "s1", Trigger: "cron", Priority: Background, Enqueued: at(1)}}},
		{Name: "subagent", Kind: KindSubAgent, Cap: 8, Running: []Entry{}, Waiting: []Entry{}},
		{Name: "session:s1", Kind: KindSession, Session: "s1", Cap: 1,
			Running: []Entry{{ID: "b", Session: "s1", Trigger: "cron", Priority: Background, Enqueued: at(1), Started: at(1)}},
			Waiting: []Entry{{ID: "c", Session: "s1", Trigger: "rpc", Priority: Normal, Enqueued: at(2)}}},
		{Name: "session:s2", Kind: KindSession, Session: "s2", Cap: 1, Running: []Entry{ea}, Waiting: []Entry{}},
	}}
	if got := h.s.Snapshot(); !reflect.DeepEqual(got, want) {
		t.Fatalf("snapshot\n got %+v\nwant %+v", got, want)
	}

	a.Leave()
	bt := h.admitted(b, "b")
	bt.Leave()
	h.admitted(c, "c").Leave()
	if got := h.s.Snapshot(); len(got.Lanes) != 2 {
		t.Fatalf("idle session lanes are still listed: %+v", got.Lanes)
	}
}

func TestChangesSignalsEachStep(t *testing.T) {
	h := newHarness(t, Options{})
	drain := func() {
		select {
		case <-h.s.Changes():
		default:
		}
	}
	signalled := func(what string) {
		t.Helper()
		select {
		case <-h.s.Changes():
		default:
			t.Fatalf("no change signalled after %s", what)
		}
	}
	drain()
	task := h.enter(req("a", "s1"))
	signalled("enter")
	task.Leave()
	signalled("leave")
	task = h.enter(Request{ID: "b", Session: "s1", RunTimeout: time.Second})
	drain()
	h.clock.Advance(Timeout(time.Second))
	signalled("the lane timeout")
	task.Leave()
}

// TestWatchWakesEveryObserver: unlike Changes, Watch is for any number of
// observers, each woken by the next change and not before it.
func TestWatchWakesEveryObserver(t *testing.T) {
	h := newHarness(t, Options{})
	watchers := []<-chan struct{}{h.s.Watch(), h.s.Watch(), h.s.Watch()}
	for i, w := range watchers {
		select {
		case <-w:
			t.Fatalf("watcher %d woken before any change", i)
		default:
		}
	}
	task := h.enter(req("a", "s1"))
	for i, w := range watchers {
		select {
		case <-w:
		default:
			t.Fatalf("watcher %d not woken by the enter", i)
		}
	}
	after := h.s.Watch()
	select {
	case <-after:
		t.Fatal("a watch taken after the change is woken by it")
	default:
	}
	task.Leave()
	select {
	case <-after:
	default:
		t.Fatal("the leave woke no watcher")
	}
}
