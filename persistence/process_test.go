package persistence

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"
)

// appendEnv is the environment of an append child making n appends.
func appendEnv(n int, verbose bool) []string {
	env := []string{helperCountEnv + "=" + strconv.Itoa(n)}
	if verbose {
		env = append(env, helperVerboseEnv+"=1")
	}
	return env
}

// integrityOK fails the test unless PRAGMA integrity_check passes.
func integrityOK(t testing.TB, s *Store) {
	t.Helper()
	var ok string
	if err := s.writer.QueryRow("PRAGMA integrity_check").Scan(&ok); err != nil || ok != "ok" {
		t.Fatalf("integrity_check = %q, %v", ok, err)
	}
}

// assertStored fails unless the session holds n messages, as its counter
// says too.
func assertStored(t testing.TB, s *Store, session string, n int) {
	t.Helper()
	ctx := context.Background()
	msgs, err := s.LoadTranscript(ctx, session)
	if err != nil {
		t.Fatal(err)
	}
	ss, err := s.Session(ctx, session)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != n || ss.MessageCount != n {
		t.Fatalf("session %s holds %d messages and counts %d, want %d", session, len(msgs), ss.MessageCount, n)
	}
}

func TestProcessesAppendToTheirOwnSessions(t *testing.T) {
	const n = 150
	dir := t.TempDir()
	a := startChild(t, "append", dir, "sa", appendEnv(n, false)...)
	b := startChild(t, "append", dir, "sb", appendEnv(n, false)...)
	a.expect("ready")
	b.expect("ready")

	// Each session is listed with the process that owns it.
	s := openStore(t, dir)
	ctx := context.Background()
	list, err := s.ListSessions(ctx, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	owners := map[string]int{}
	for _, ss := range list {
		owners[ss.ID] = ss.Owner.PID
	}
	if want := map[string]int{"sa": a.pid(), "sb": b.pid()}; fmt.Sprint(owners) != fmt.Sprint(want) {
		t.Fatalf("owners %v, want %v", owners, want)
	}

	a.send("go")
	b.send("go")
	a.durations()
	b.durations()
	integrityOK(t, s)
	assertStored(t, s, "sa", n)
	assertStored(t, s, "sb", n)
	// Their processes have ended, and so has their ownership.
	for _, id := range []string{"sa", "sb"} {
		if ss, err := s.Session(ctx, id); err != nil || ss.Owner.Live() {
			t.Errorf("session %s after its owner ended: owner %+v, %v", id, ss.Owner, err)
		}
	}
}

func TestClaimPassesOnWhenTheOwnerIsKilled(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	s := openStore(t, dir)
	if err := s.CreateSession(ctx, Session{ID: testSession, Workspace: "/work"}); err != nil {
		t.Fatal(err)
	}
	c, err := s.ClaimSession(ctx, testSession)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Release(ctx); err != nil {
		t.Fatal(err)
	}

	owner := startChild(t, "claim", dir, testSession)
	owner.expect("claimed")

	// A second owner is refused, naming the first.
	_, err = s.ClaimSession(ctx, testSession)
	var oe *OwnedError
	if !errors.As(err, &oe) || *oe != (OwnedError{SessionID: testSession, PID: owner.pid(), Host: thisHost()}) {
		t.Fatalf("a second claim gave %v, want *OwnedError naming pid %d", err, owner.pid())
	}
	want := fmt.Sprintf("session %s is open in another steer process (pid %d on %s)", testSession, owner.pid(), thisHost())
	if err.Error() != want {
		t.Errorf("message\n got %q\nwant %q", err, want)
	}
	if err := s.BeginRun(ctx, Run{ID: testRun, SessionID: testSession}); !errors.As(err, &oe) {
		t.Errorf("BeginRun on the owned session gave %v, want *OwnedError", err)
	}
	if _, err := s.LatestUnownedSession(ctx, "/work"); !errors.Is(err, ErrNotFound) {
		t.Errorf("LatestUnownedSession gave %v, want ErrNotFound", err)
	}
	// A read-only store sees the owner too.
	ro, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if ss, err := ro.Session(ctx, testSession); err != nil || ss.Owner.PID != owner.pid() {
		t.Errorf("the read-only store sees owner %+v, %v", ss.Owner, err)
	}

	owner.kill9()

	// At once: no retry, no wait.
	if ss, err := ro.Session(ctx, testSession); err != nil || ss.Owner.Live() {
		t.Errorf("after the kill the owner is %+v, %v", ss.Owner, err)
	}
	if _, err := s.ClaimSession(ctx, testSession); err != nil {
		t.Fatalf("claim after the owner was killed: %v", err)
	}
	if ss, err := ro.Session(ctx, testSession); err != nil || ss.Owner.PID != os.Getpid() {
		t.Errorf("the new owner is listed as %+v, %v", ss.Owner, err)
	}
	if err := s.BeginRun(ctx, Run{ID: testRun, SessionID: testSession}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RepairSession(ctx, testSession, testRun); err != nil {
		t.Fatal(err)
	}
}

// TestKillingAWriterLosesNothingElse kills one of two writing processes at a
// random point, six times: the other always completes every append, and the
// database stays sound with everything the killed one committed.
func TestKillingAWriterLosesNothingElse(t *testing.T) {
	const rounds, survivorAppends, maxKillAfter = 6, 200, 150
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	for round := range rounds {
		killAfter := 1 + rng.IntN(maxKillAfter)
		t.Run(fmt.Sprintf("round %d, kill after %d", round+1, killAfter), func(t *testing.T) {
			dir := t.TempDir()
			victim := startChild(t, "append", dir, "victim", appendEnv(1_000_000, true)...)
			survivor := startChild(t, "append", dir, "survivor", appendEnv(survivorAppends, false)...)
			victim.expect("ready")
			survivor.expect("ready")
			victim.send("go")
			survivor.send("go")
			for i := 1; i <= killAfter; i++ {
				victim.expect("appended " + strconv.Itoa(i))
			}
			victim.kill9()
			if d := survivor.durations(); len(d) != survivorAppends {
				t.Fatalf("the survivor made %d appends", len(d))
			}

			s := openStore(t, dir)
			integrityOK(t, s)
			assertStored(t, s, "survivor", survivorAppends)
			msgs, err := s.LoadTranscript(context.Background(), "victim")
			if err != nil {
				t.Fatal(err)
			}
			if len(msgs) < killAfter {
				t.Fatalf("the victim's session holds %d messages; it had committed %d", len(msgs), killAfter)
			}
			assertStored(t, s, "victim", len(msgs))
			ctx := context.Background()
			if err := s.BeginRun(ctx, Run{ID: "next", SessionID: "victim"}); err != nil {
				t.Fatalf("the killed writer's session could not be taken over: %v", err)
			}
			if _, err := s.RepairSession(ctx, "victim", "next"); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestConcurrentFirstOpens(t *testing.T) {
	tests := []struct {
		name    string
		version int // -1: no file yet
	}{
		{"fresh directory", -1},
		{"database at version 1", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.version >= 0 {
				buildAtVersion(t, dir, tt.version)
			}
			var children []*child
			for range 3 {
				children = append(children, startChild(t, "open", dir, ""))
			}
			for _, c := range children {
				c.send("go")
			}
			var wg sync.WaitGroup
			errs := make(chan error, 3)
			for range 3 {
				wg.Go(func() {
					s, err := Open(dir, Options{})
					if err == nil {
						err = s.Close()
					}
					errs <- err
				})
			}
			for _, c := range children {
				c.expect("opened")
				if err := c.wait(); err != nil {
					t.Fatalf("child %d: %v", c.pid(), err)
				}
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			fresh := openStore(t, t.TempDir())
			wantSchema, wantVersion := schemaOf(t, fresh.writer)
			s := openStore(t, dir)
			if gotSchema, gotVersion := schemaOf(t, s.writer); gotVersion != wantVersion || fmt.Sprint(gotSchema) != fmt.Sprint(wantSchema) {
				t.Fatalf("version %d, schema %v\nwant %d, %v", gotVersion, gotSchema, wantVersion, wantSchema)
			}
			integrityOK(t, s)
		})
	}
}
