package persistence

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/steer-tui/steer/lanes"
)

func init() {
	// publish-lanes publishes a snapshot with one running run of session
	// SESSION, says "published" and holds it until its stdin closes (or it
	// is killed).
	helperRoles["publish-lanes"] = func(dir, session string, in *bufio.Scanner) error {
		s, err := Open(dir, Options{})
		if err != nil {
			return err
		}
		defer s.Close()
		p, err := s.LanePublisher()
		if err != nil {
			return err
		}
		if err := p.Publish(context.Background(), busySnapshot(session, time.Now().UTC())); err != nil {
			return err
		}
		fmt.Println("published")
		for in.Scan() {
		}
		return p.Close(context.Background())
	}
}

// busySnapshot is a snapshot at taken (at millisecond precision) of one run
// of session in the global lane, another waiting for it, and one waiting
// for the session.
func busySnapshot(session string, taken time.Time) lanes.Snapshot {
	taken = fromMS(ms(taken))
	running := lanes.Entry{ID: "r1", Session: session, Trigger: "user", Priority: lanes.Foreground,
		Enqueued: taken.Add(-2 * time.Second), Started: taken.Add(-2 * time.Second)}
	return lanes.Snapshot{Taken: taken, Lanes: []lanes.Lane{
		{Name: "global", Kind: lanes.KindGlobal, Cap: 1, Running: []lanes.Entry{running},
			Waiting: []lanes.Entry{{ID: "r2", Session: "other", Trigger: "cron", Priority: lanes.Background,
				Enqueued: taken.Add(-time.Second)}}},
		{Name: "subagent", Kind: lanes.KindSubAgent, Cap: 8, Running: []lanes.Entry{}, Waiting: []lanes.Entry{}},
		{Name: "session:other", Kind: lanes.KindSession, Session: "other", Cap: 1,
			Running: []lanes.Entry{{ID: "r2", Session: "other", Trigger: "cron", Priority: lanes.Background,
				Enqueued: taken.Add(-time.Second), Started: taken.Add(-time.Second)}},
			Waiting: []lanes.Entry{}},
		{Name: "session:" + session, Kind: lanes.KindSession, Session: session, Cap: 1,
			Running: []lanes.Entry{running},
			Waiting: []lanes.Entry{{ID: "r3", Session: session, Trigger: "rpc", Priority: lanes.Normal, SubAgent: true,
				Enqueued: taken}}},
	}}
}

// idleSnapshot is a snapshot at taken with nothing in any lane.
func idleSnapshot(taken time.Time) lanes.Snapshot {
	return lanes.Snapshot{Taken: fromMS(ms(taken)), Lanes: []lanes.Lane{
		{Name: "global", Kind: lanes.KindGlobal, Cap: 4, Running: []lanes.Entry{}, Waiting: []lanes.Entry{}},
		{Name: "subagent", Kind: lanes.KindSubAgent, Cap: 8, Running: []lanes.Entry{}, Waiting: []lanes.Entry{}},
	}}
}

// listLanes lists the live snapshots, failing the test on error.
func listLanes(t *testing.T, s *Store) []ProcessLanes {
	t.Helper()
	list, err := s.LaneSnapshots(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// storedPublishers counts the publishers with rows in the database.
func storedPublishers(t *testing.T, s *Store) int {
	t.Helper()
	var n int
	if err := s.reader.QueryRow(`SELECT count(*) FROM lane_processes`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func newPublisher(t *testing.T, s *Store) *LanePublisher {
	t.Helper()
	p, err := s.LanePublisher()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close(context.Background()) })
	return p
}

func TestPublishedLanesReadBackAsPublished(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	p := newPublisher(t, s)
	cases := []struct {
		name string
		snap lanes.Snapshot
	}{
		{"busy", busySnapshot("s1", at(5000))},
		{"a later snapshot replaces it", idleSnapshot(at(9000))},
		{"and again", busySnapshot("s2", at(12000))},
	}
	for _, tc := range cases {
		if err := p.Publish(ctx, tc.snap); err != nil {
			t.Fatal(err)
		}
		list := listLanes(t, s)
		if len(list) != 1 {
			t.Fatalf("%s: %d processes listed, want 1", tc.name, len(list))
		}
		got := list[0]
		if got.PID != os.Getpid() || got.Host != thisHost() || got.ProcessID == "" || got.Started.IsZero() {
			t.Errorf("%s: process %+v", tc.name, got)
		}
		if !reflect.DeepEqual(got.Snapshot, tc.snap) {
			t.Fatalf("%s: snapshot\n got %+v\nwant %+v", tc.name, got.Snapshot, tc.snap)
		}
	}
}

func TestLaneListingJSONHasNoNulls(t *testing.T) {
	s := openStore(t, t.TempDir())
	b, err := json.Marshal(listLanes(t, s))
	if err != nil || string(b) != "[]" {
		t.Fatalf("empty listing = %s, %v", b, err)
	}
	p := newPublisher(t, s)
	if err := p.Publish(context.Background(), idleSnapshot(at(1))); err != nil {
		t.Fatal(err)
	}
	list := listLanes(t, s)
	b, err = json.Marshal(list)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`[{"processId":%q,"pid":%d,"host":%q,"started":%s,"taken":"2026-01-02T03:04:05.001Z","lanes":[`+
		`{"name":"global","kind":"global","cap":4,"running":[],"waiting":[]},`+
		`{"name":"subagent","kind":"subagent","cap":8,"running":[],"waiting":[]}]}]`,
		list[0].ProcessID, os.Getpid(), thisHost(), mustJSON(t, list[0].Started))
	if string(b) != want {
		t.Fatalf("JSON\n got %s\nwant %s", b, want)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Two stores are two processes: each lists both; a closed publisher is
// gone from the listing and from the database.
func TestEveryLivePublisherIsListed(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	a, b := openStore(t, dir), openStore(t, dir)
	pa, pb := newPublisher(t, a), newPublisher(t, b)
	if err := pa.Publish(ctx, busySnapshot("sa", at(10))); err != nil {
		t.Fatal(err)
	}
	if err := pb.Publish(ctx, busySnapshot("sb", at(20))); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Store{a, b} {
		if list := listLanes(t, s); len(list) != 2 || list[0].ProcessID == list[1].ProcessID {
			t.Fatalf("listed %+v, want both publishers", list)
		}
	}
	if err := pa.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if err := pa.Close(ctx); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if err := pa.Publish(ctx, busySnapshot("sa", at(30))); err == nil {
		t.Fatal("Publish after Close succeeded")
	}
	list := listLanes(t, b)
	if len(list) != 1 || list[0].Lanes[3].Session != "sb" {
		t.Fatalf("after Close listed %+v, want b's only", list)
	}
	if n := storedPublishers(t, b); n != 1 {
		t.Fatalf("%d publishers stored after Close, want 1", n)
	}
	if _, err := os.Stat(filepath.Join(dir, lanesDirName, pa.id+".lock")); !os.IsNotExist(err) {
		t.Fatalf("closed publisher's lock file: %v", err)
	}
}

// A publisher whose process died, however it died, is left out of every
// listing at once, and its rows and lock file go with the next listing that
// may write.
func TestADeadProcessLanesAreIgnoredAndRemoved(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, dir)
	if err := s.CreateSession(context.Background(), Session{ID: "s1"}); err != nil {
		t.Fatal(err)
	}
	c := startChild(t, "publish-lanes", dir, "sc")
	c.expect("published")
	list := listLanes(t, s)
	if len(list) != 1 || list[0].PID != c.pid() {
		t.Fatalf("listed %+v, want the child %d", list, c.pid())
	}
	id := list[0].ProcessID
	c.kill9()

	ro, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if list := listLanes(t, ro); len(list) != 0 {
		t.Fatalf("read-only listing shows the dead child: %+v", list)
	}
	if n := storedPublishers(t, s); n != 1 {
		t.Fatalf("a read-only listing changed the rows: %d left", n)
	}
	if list := listLanes(t, s); len(list) != 0 {
		t.Fatalf("listing shows the dead child: %+v", list)
	}
	if n := storedPublishers(t, s); n != 0 {
		t.Fatalf("%d dead publishers still stored", n)
	}
	if _, err := os.Stat(filepath.Join(dir, lanesDirName, id+".lock")); !os.IsNotExist(err) {
		t.Fatalf("dead publisher's lock file: %v", err)
	}
}

func TestAReadOnlyStorePublishesNothing(t *testing.T) {
	dir := t.TempDir()
	openStore(t, dir)
	ro, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.LanePublisher(); err != ErrReadOnly {
		t.Fatalf("LanePublisher on a read-only store = %v, want ErrReadOnly", err)
	}
}

// What the runner publishes is what the scheduler snapshots.
func TestASchedulerSnapshotRoundTrips(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	p := newPublisher(t, s)
	sched := lanes.New(lanes.Options{MaxConcurrent: 2})
	task, err := sched.Enter(ctx, lanes.Request{ID: "r1", Session: "s1", Trigger: "user"})
	if err != nil {
		t.Fatal(err)
	}
	defer task.Leave()
	snap := sched.Snapshot()
	if err := p.Publish(ctx, snap); err != nil {
		t.Fatal(err)
	}
	got := listLanes(t, s)[0].Snapshot
	// Stored times are milliseconds.
	want := snap
	want.Taken = fromMS(ms(snap.Taken))
	for i := range want.Lanes {
		for j := range want.Lanes[i].Running {
			e := &want.Lanes[i].Running[j]
			e.Enqueued, e.Started = fromMS(ms(e.Enqueued)), fromMS(ms(e.Started))
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("snapshot\n got %+v\nwant %+v", got, want)
	}
}
