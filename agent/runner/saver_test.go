package runner

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// failAppends makes every transcript append fail until the returned func
// undoes it, as a full disk would.
func failAppends(t *testing.T, path string) (restore func()) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec(`CREATE TRIGGER fail_appends BEFORE INSERT ON transcript_entries
		BEGIN SELECT RAISE(ABORT, 'disk full'); END`); err != nil {
		t.Fatal(err)
	}
	return func() {
		if _, err := db.Exec(`DROP TRIGGER fail_appends`); err != nil {
			t.Fatal(err)
		}
	}
}

// noticeLog collects notices.
type noticeLog struct {
	mu    sync.Mutex
	items []Notice
}

func (l *noticeLog) add(n Notice) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.items = append(l.items, n)
}

func (l *noticeLog) kinds() []NoticeKind {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []NoticeKind
	for _, n := range l.items {
		out = append(out, n.Kind)
	}
	return out
}

// TestFailedSaveIsVisible: a failed append sets State().PersistError and
// sends one persist_error notice however many writes fail; once the writes
// kept for a retry are written (by the next run's saves) it clears with
// persist_recovered, and the transcript holds both runs in order.
func TestFailedSaveIsVisible(t *testing.T) {
	dir := t.TempDir()
	store := openStore(t, dir)
	defer store.Close()
	script := agenttest.NewScript(
		agenttest.Reply().Text("one").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("two").Stop(agent.StopReasonStop),
	)
	rt := newRuntime(t, store, script, Options{})
	var log noticeLog
	rt.SubscribeNotices(log.add)

	restore := failAppends(t, store.Path())
	if err := rt.Prompt(context.Background(), "first"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	if got := rt.State().PersistError; !strings.Contains(got, "disk full") {
		t.Fatalf("PersistError = %q, want the database's error", got)
	}
	if got := log.kinds(); len(got) != 1 || got[0] != NoticePersistError {
		t.Fatalf("notices = %v, want one persist_error", got)
	}

	restore()
	if err := rt.Prompt(context.Background(), "second"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	if got := rt.State().PersistError; got != "" {
		t.Fatalf("PersistError = %q after a good save", got)
	}
	if got := log.kinds(); len(got) != 2 || got[1] != NoticePersistRecovered {
		t.Fatalf("notices = %v, want persist_error then persist_recovered", got)
	}
	// The first run's answer, kept while appends failed, was written
	// before the second run's messages.
	var got []string
	for _, m := range savedTexts(t, rt) {
		got = append(got, strings.SplitN(m, ":", 2)[1])
	}
	if want := "[first one second two]"; fmt.Sprint(got) != want {
		t.Fatalf("saved %v, want %s", got, want)
	}
}

// TestSavesDoNotHoldTheEventPath: a save that cannot finish does not keep
// the run from ending, and Close gives up on it when its context ends.
func TestSavesDoNotHoldTheEventPath(t *testing.T) {
	dir := t.TempDir()
	store := openStore(t, dir)
	defer store.Close()
	rt := newRuntime(t, store, agenttest.NewScript(agenttest.Reply().Text("hi").Stop(agent.StopReasonStop)), Options{})

	blocked, release := make(chan struct{}), make(chan struct{})
	rt.writes.add(saveJob{
		write:  func(ctx context.Context) error { close(blocked); <-release; return nil },
		report: func(error) {},
	})
	<-blocked
	ended := make(chan struct{})
	rt.Subscribe(func(ev agent.Event) {
		if _, ok := ev.(agent.AgentEnd); ok {
			close(ended)
		}
	})
	if err := rt.Prompt(context.Background(), "hello"); err != nil {
		t.Fatal(err)
	}
	<-ended // reached although the saver is stuck

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := rt.WaitForIdle(ctx); err == nil {
		t.Fatal("WaitForIdle returned before the run's saves finished")
	}
	close(release)
	waitIdle(t, rt)
	msgs, err := store.LoadTranscript(context.Background(), rt.SessionID())
	if err != nil || len(msgs) != 2 {
		t.Fatalf("saved %d messages (%v), want the prompt and the answer", len(msgs), err)
	}
	if err := rt.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := rt.FollowUp(context.Background(), "after close"); err == nil {
		t.Fatal("an input after Close was accepted")
	}
}
