package persistence

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/steer-tui/steer/agent"
)

// Two stores in one process behave like two processes: each descriptor is
// its own lock owner.

func TestStoresInOneProcessShareTheDirectory(t *testing.T) {
	const n = 100
	dir := t.TempDir()
	ctx := context.Background()
	a, b := openStore(t, dir), openStore(t, dir)
	for _, w := range []struct {
		s  *Store
		id string
	}{{a, "sa"}, {b, "sb"}} {
		if err := w.s.CreateSession(ctx, Session{ID: w.id, Workspace: "/work"}); err != nil {
			t.Fatal(err)
		}
		if err := w.s.BeginRun(ctx, Run{ID: "r-" + w.id, SessionID: w.id}); err != nil {
			t.Fatal(err)
		}
	}
	// A new session in one store is listed by the other, with its owner.
	list, err := a.ListSessions(ctx, ListOptions{})
	if err != nil || len(list) != 2 {
		t.Fatalf("ListSessions = %+v, %v", list, err)
	}
	for _, ss := range list {
		if ss.Owner.PID != os.Getpid() || ss.Owner.Host != thisHost() || ss.Owner.Since.IsZero() {
			t.Errorf("session %s: owner %+v", ss.ID, ss.Owner)
		}
	}

	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for _, w := range []struct {
		s  *Store
		id string
	}{{a, "sa"}, {b, "sb"}} {
		wg.Go(func() {
			for i := range n {
				if err := w.s.AppendMessage(ctx, w.id, "r-"+w.id, typicalAssistant(i)); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	assertStored(t, a, "sb", n)
	assertStored(t, b, "sa", n)
	integrityOK(t, a)
}

func TestASecondOwnerIsRefused(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	a, b := openStore(t, dir), openStore(t, dir)
	if err := a.CreateSession(ctx, Session{ID: testSession, Workspace: "/work"}); err != nil {
		t.Fatal(err)
	}
	if err := a.BeginRun(ctx, Run{ID: testRun, SessionID: testSession}); err != nil {
		t.Fatal(err)
	}
	c, err := a.ClaimSession(ctx, testSession)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := a.ClaimSession(ctx, testSession); again != c || err != nil {
		t.Errorf("claiming a held session again gave %p, %v; want the same claim %p", again, err, c)
	}
	if c.SessionID() != testSession {
		t.Errorf("SessionID() = %q", c.SessionID())
	}

	want := OwnedError{SessionID: testSession, PID: os.Getpid(), Host: thisHost()}
	for name, err := range map[string]error{
		"ClaimSession":    func() error { _, err := b.ClaimSession(ctx, testSession); return err }(),
		"BeginRun":        b.BeginRun(ctx, Run{ID: "r2", SessionID: testSession}),
		"AddPendingInput": b.AddPendingInput(ctx, testSession, pendingItem("q1")),
		"CreateSession":   b.CreateSession(ctx, Session{ID: testSession}),
	} {
		var oe *OwnedError
		if !errors.As(err, &oe) || *oe != want {
			t.Errorf("%s on an owned session gave %v, want %+v", name, err, want)
		}
	}
	if list, err := b.ListSessions(ctx, ListOptions{Unowned: true}); err != nil || len(list) != 0 {
		t.Errorf("ListSessions(Unowned) = %+v, %v", list, err)
	}
	if _, err := b.LatestUnownedSession(ctx, "/work"); !errors.Is(err, ErrNotFound) {
		t.Errorf("LatestUnownedSession gave %v, want ErrNotFound", err)
	}
	// The refused run never became the writer.
	f := fixture{store: a, ctx: ctx}
	f.append(t, user("still mine", 1))

	// Released, the session passes on, and the old run can no longer write.
	if err := c.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.Release(ctx); err != nil {
		t.Errorf("a second Release gave %v", err)
	}
	if ss, err := b.Session(ctx, testSession); err != nil || ss.Owner.Live() {
		t.Errorf("after Release the owner is %+v, %v", ss.Owner, err)
	}
	if _, err := b.ClaimSession(ctx, testSession); err != nil {
		t.Fatalf("claim after Release: %v", err)
	}
	if err := a.AppendMessage(ctx, testSession, testRun, user("late", 2)); !errors.Is(err, ErrStaleWriter) {
		t.Errorf("the released owner's run wrote: %v", err)
	}
}

func TestClaimLatestSessionPassesOverOwnedOnes(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	a, b := openStore(t, dir), openStore(t, dir)
	for _, id := range []string{"old", "new"} {
		if err := a.CreateSession(ctx, Session{ID: id, Workspace: "/work"}); err != nil {
			t.Fatal(err)
		}
	}
	old, err := a.ClaimSession(ctx, "old")
	if err != nil {
		t.Fatal(err)
	}
	if err := old.Release(ctx); err != nil {
		t.Fatal(err)
	}
	// "new" is the latest, but a owns it.
	if latest, err := b.LatestSession(ctx, "/work"); err != nil || latest.ID != "new" {
		t.Fatalf("LatestSession = %+v, %v", latest, err)
	}
	if latest, err := b.LatestUnownedSession(ctx, "/work"); err != nil || latest.ID != "old" {
		t.Fatalf("LatestUnownedSession = %+v, %v", latest, err)
	}
	ss, c, err := b.ClaimLatestSession(ctx, "/work")
	if err != nil || ss.ID != "old" || c.SessionID() != "old" || ss.Owner.PID != os.Getpid() {
		t.Fatalf("ClaimLatestSession = %+v, %v, %v", ss, c, err)
	}
	if _, _, err := openStore(t, dir).ClaimLatestSession(ctx, "/work"); !errors.Is(err, ErrNotFound) {
		t.Errorf("with every session owned ClaimLatestSession gave %v", err)
	}
}

func TestCloseReleasesClaims(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	a, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateSession(ctx, Session{ID: testSession}); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := a.ClaimSession(ctx, testSession); err == nil {
		t.Error("a closed store claimed a session")
	}
	b := openStore(t, dir)
	if _, err := b.ClaimSession(ctx, testSession); err != nil {
		t.Fatalf("claim after the owner closed: %v", err)
	}
	var records int
	if err := b.reader.QueryRow(`SELECT count(*) FROM session_owners`).Scan(&records); err != nil || records != 1 {
		t.Errorf("%d owner records, %v; want the new owner's only", records, err)
	}
}

func TestClaimRefusals(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	s := openStore(t, dir)
	if _, err := s.ClaimSession(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("claiming an unknown session gave %v", err)
	}
	if err := s.BeginRun(ctx, Run{ID: "r", SessionID: "nope"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("BeginRun on an unknown session gave %v", err)
	}
	if _, err := s.ClaimSession(ctx, ""); err == nil {
		t.Error("an empty id was claimed")
	}
	// A refused claim holds no lock.
	if err := s.CreateSession(ctx, Session{ID: "nope"}); err != nil {
		t.Fatal(err)
	}
	ro, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.ClaimSession(ctx, "nope"); !errors.Is(err, ErrReadOnly) {
		t.Errorf("a read-only claim gave %v", err)
	}
	if err := ro.CreateSession(ctx, Session{ID: "x"}); !errors.Is(err, ErrReadOnly) {
		t.Errorf("a read-only CreateSession gave %v", err)
	}
}

func TestOwnedErrorMessages(t *testing.T) {
	for _, tt := range []struct {
		err  OwnedError
		want string
	}{
		{OwnedError{"s1", 42, "box"}, "session s1 is open in another steer process (pid 42 on box)"},
		{OwnedError{"s1", 42, ""}, "session s1 is open in another steer process (pid 42)"},
		{OwnedError{"s1", 0, ""}, "session s1 is open in another steer process"},
	} {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.err, got, tt.want)
		}
	}
}

func TestLockNamesStayInTheSessionsDirectory(t *testing.T) {
	seen := map[string]string{}
	for _, id := range []string{"s_0123abcd", "a.b-c_D", "../escape", "a/b", ".hidden", "..", "ünï", "~x", strings.Repeat("x", 200), strings.Repeat("x", 201)} {
		name := lockName(id)
		if filepath.Base(name) != name || name == ".lock" || strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".lock") {
			t.Errorf("id %q gives lock file %q", id, name)
		}
		if other, dup := seen[name]; dup {
			t.Errorf("ids %q and %q share the lock file %q", other, id, name)
		}
		seen[name] = id
	}
	if got := lockName("s_0123abcd"); got != "s_0123abcd.lock" {
		t.Errorf("a plain id is hashed: %q", got)
	}
}

// pendingItem is a queued steer.
func pendingItem(id string) agent.QueueItem {
	return agent.QueueItem{ID: id, Kind: agent.QueueSteer, Text: "steer " + id}
}
