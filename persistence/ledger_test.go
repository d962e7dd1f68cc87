package persistence

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/failover"
)

// The ledger's child: helperRoles["ledger"] opens the directory, says
// "ready", waits for "go", records COUNT rate_limit failures of the profile
// named by the session variable, one Update each, and says "done".
func init() {
	helperRoles["ledger"] = func(dir, profile string, in *bufio.Scanner) error {
		n, err := strconv.Atoi(os.Getenv(helperCountEnv))
		if err != nil {
			return err
		}
		s, err := Open(dir, Options{})
		if err != nil {
			return err
		}
		defer s.Close()
		fmt.Println("ready")
		if err := expectLine(in, "go"); err != nil {
			return err
		}
		l := s.Ledger()
		for i := range n {
			if _, err := l.Update(context.Background(), profile, recordRateLimit); err != nil {
				return fmt.Errorf("update %d: %w", i+1, err)
			}
		}
		fmt.Println("done")
		return s.Close()
	}
}

// recordRateLimit records a rate_limit failure of model "m" at epoch. Every
// failure happens at the same instant, inside the cooldown the first one
// opened, so none resets a counter: after n of them Failures, ErrorCount and
// the rate_limit count are all n.
func recordRateLimit(p failover.ProfileState) failover.ProfileState {
	return p.RecordFailure(failover.Failure{At: epoch, Reason: failover.ReasonRateLimit, Model: "m", ProviderReached: true},
		failover.Cooldowns{})
}

// assertCounted fails unless profile id has recorded exactly n rate_limit
// failures (see recordRateLimit).
func assertCounted(t testing.TB, l failover.Ledger, id string, n int) failover.ProfileState {
	t.Helper()
	p, err := l.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if p.Failures != n || p.ErrorCount != n || p.ReasonCounts[failover.ReasonRateLimit] != n {
		t.Fatalf("profile %s: Failures %d, ErrorCount %d, rate_limit count %d; want %d each (lost updates)",
			id, p.Failures, p.ErrorCount, p.ReasonCounts[failover.ReasonRateLimit], n)
	}
	return p
}

// fullState sets every field of a ProfileState, each to a distinct value
// that survives storage.
func fullState(id string) failover.ProfileState {
	p := failover.ProfileState{
		ProfileID:         id,
		Failures:          17,
		Successes:         4,
		LastFailureAt:     at(1000),
		LastFailureReason: failover.ReasonBilling,
		LastSuccessAt:     at(900),
		ErrorCount:        3,
		CooldownUntil:     at(31000),
		CooldownModel:     "gpt-x",
		CooldownReason:    failover.ReasonRateLimit,
		CooldownSource:    failover.SourceRetryAfter,
		DisabledUntil:     at(5 * 3600 * 1000),
		DisabledReason:    failover.ReasonAuthPermanent,
	}
	for i := range p.ReasonCounts {
		p.ReasonCounts[i] = i + 1
	}
	return p
}

func TestLedgerRoundTripsEveryField(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openStore(t, dir)
	l := s.Ledger()
	want := fullState("openai:work")
	v := reflect.ValueOf(want)
	for i := range v.NumField() {
		if v.Field(i).IsZero() {
			t.Fatalf("fullState leaves %s zero: the test no longer covers every field", v.Type().Field(i).Name)
		}
	}

	got, err := l.Update(ctx, "openai:work", func(p failover.ProfileState) failover.ProfileState {
		if !reflect.DeepEqual(p, failover.ProfileState{ProfileID: "openai:work"}) {
			t.Errorf("an unrecorded profile reached fn as %+v", p)
		}
		next := want
		next.ProfileID = "someone else" // the stored id is always the key
		return next
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Update returned\n%+v\nwant\n%+v", got, want)
	}
	for _, name := range []string{"same store", "another store", "read-only store"} {
		var st *Store
		switch name {
		case "same store":
			st = s
		case "another store":
			st = openStore(t, dir)
		default:
			ro, err := Open(dir, Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ro.Close() })
			st = ro
		}
		if got, err := st.Ledger().Load(ctx, "openai:work"); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Load gave\n%+v, %v\nwant\n%+v", name, got, err, want)
		}
		if list, err := st.ProfileStates(ctx); err != nil || !reflect.DeepEqual(list, []failover.ProfileState{want}) {
			t.Errorf("%s: ProfileStates gave %+v, %v", name, list, err)
		}
	}

	// The row holds codes and milliseconds, never anything Go-specific.
	var reason, counts string
	var until int64
	if err := s.reader.QueryRow(`SELECT last_failure_reason, reason_counts, disabled_until FROM auth_profiles`).
		Scan(&reason, &counts, &until); err != nil {
		t.Fatal(err)
	}
	if reason != "billing" || until != at(5*3600*1000).UnixMilli() {
		t.Errorf("stored reason %q, disabled_until %d", reason, until)
	}
	var rateLimit int
	if err := s.reader.QueryRow(`SELECT reason_counts ->> '$.rate_limit' FROM auth_profiles`).Scan(&rateLimit); err != nil ||
		rateLimit != int(failover.ReasonRateLimit)+1 {
		t.Errorf("reason_counts %s: rate_limit %d, %v", counts, rateLimit, err)
	}
}

func TestLedgerUnknownProfileIsAZeroState(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	got, err := s.Ledger().Load(ctx, "never-seen")
	if err != nil || !reflect.DeepEqual(got, failover.ProfileState{ProfileID: "never-seen"}) {
		t.Fatalf("Load of an unrecorded profile gave %+v, %v", got, err)
	}
	if list, err := s.ProfileStates(ctx); err != nil || len(list) != 0 {
		t.Fatalf("ProfileStates on an empty ledger gave %+v, %v", list, err)
	}
	if _, err := s.Ledger().Update(ctx, "", recordRateLimit); err == nil {
		t.Error("Update accepted an empty profile id")
	}
}

// TestLedgerTruncatesToMilliseconds: Update returns what a later Load does.
func TestLedgerTruncatesToMilliseconds(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	local := time.FixedZone("here", 3600)
	fine := time.Date(2026, 3, 4, 5, 6, 7, 123456789, local)
	got, err := s.Ledger().Update(ctx, "p", func(p failover.ProfileState) failover.ProfileState {
		p.CooldownUntil = fine
		return p
	})
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := s.Ledger().Load(ctx, "p")
	if err != nil || !reflect.DeepEqual(got, loaded) {
		t.Fatalf("Update returned %+v, Load %+v (%v)", got, loaded, err)
	}
	if want := fine.Truncate(time.Millisecond).UTC(); !got.CooldownUntil.Equal(want) || got.CooldownUntil.Location() != time.UTC {
		t.Errorf("stored %v, want %v in UTC", got.CooldownUntil, want)
	}
}

// TestLedgerConcurrentStoresLoseNoFailure updates one profile from several
// stores on one directory — several owners, exactly like processes — at
// once: every failure is counted, and every store sees the cooldown.
func TestLedgerConcurrentStoresLoseNoFailure(t *testing.T) {
	const stores, workersPerStore, updates = 4, 3, 25
	ctx := context.Background()
	dir := t.TempDir()
	var all []*Store
	for range stores {
		all = append(all, openStore(t, dir))
	}
	var wg sync.WaitGroup
	errs := make(chan error, stores*workersPerStore)
	for _, s := range all {
		for range workersPerStore {
			wg.Go(func() {
				for i := range updates {
					if _, err := s.Ledger().Update(ctx, "shared", recordRateLimit); err != nil {
						errs <- fmt.Errorf("update %d: %w", i+1, err)
						return
					}
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for _, s := range all {
		p := assertCounted(t, s.Ledger(), "shared", stores*workersPerStore*updates)
		// A profile rate-limited through one store is skipped through
		// another — for the model that failed only.
		if ok, until, why := p.Available(epoch.Add(time.Second), "m"); ok || why != failover.EligibleInCooldown ||
			!until.Equal(epoch.Add(failover.CooldownFirst)) {
			t.Errorf("model m: available %v until %v (%v), want a 30 s cooldown", ok, until, why)
		}
		if ok, _, _ := p.Available(epoch.Add(time.Second), "other"); !ok {
			t.Error("a rate_limit cooldown of model m blocks another model")
		}
	}
}

// TestLedgerProcessesLoseNoFailure has three child processes and this one
// record failures of one profile at once.
func TestLedgerProcessesLoseNoFailure(t *testing.T) {
	const children, perChild, here = 3, 100, 50
	dir := t.TempDir()
	s := openStore(t, dir) // creates the database before the children race
	var cs []*child
	for range children {
		cs = append(cs, startChild(t, "ledger", dir, "openai:shared", helperCountEnv+"="+strconv.Itoa(perChild)))
	}
	for _, c := range cs {
		c.expect("ready")
	}
	for _, c := range cs {
		c.send("go")
	}
	for i := range here {
		if _, err := s.Ledger().Update(context.Background(), "openai:shared", recordRateLimit); err != nil {
			t.Fatalf("update %d: %v", i+1, err)
		}
	}
	for _, c := range cs {
		c.expect("done")
		if err := c.wait(); err != nil {
			t.Fatalf("child %d: %v", c.pid(), err)
		}
	}
	assertCounted(t, s.Ledger(), "openai:shared", children*perChild+here)
	integrityOK(t, s)
}

// TestLedgerKeepsWindowsAcrossARestart closes the store and opens it again:
// the cooldown and the disabled window are still there, read-write and
// read-only.
func TestLedgerKeepsWindowsAcrossARestart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	now := time.Now().UTC().Truncate(time.Millisecond)
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var c failover.Cooldowns
	if _, err := s.Ledger().Update(ctx, "work", func(p failover.ProfileState) failover.ProfileState {
		return p.RecordFailure(failover.Failure{At: now, Reason: failover.ReasonAuth, ProviderReached: true}, c)
	}); err != nil {
		t.Fatal(err)
	}
	want, err := s.Ledger().Update(ctx, "spare", func(p failover.ProfileState) failover.ProfileState {
		return p.RecordFailure(failover.Failure{At: now, Reason: failover.ReasonBilling, ProviderReached: true}, c)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	for _, ro := range []bool{false, true} {
		s, err := Open(dir, Options{ReadOnly: ro})
		if err != nil {
			t.Fatal(err)
		}
		later := now.Add(10 * time.Second)
		work, err := s.Ledger().Load(ctx, "work")
		if err != nil {
			t.Fatal(err)
		}
		if ok, until, why := work.Available(later, "any"); ok || why != failover.EligibleInCooldown || !until.Equal(now.Add(failover.CooldownFirst)) {
			t.Errorf("ReadOnly=%v: work after a restart: available %v until %v (%v)", ro, ok, until, why)
		}
		spare, err := s.Ledger().Load(ctx, "spare")
		if err != nil || !reflect.DeepEqual(spare, want) {
			t.Errorf("ReadOnly=%v: spare after a restart %+v, %v; want %+v", ro, spare, err, want)
		}
		if ok, until, why := spare.Available(later, "any"); ok || why != failover.EligibleDisabled || !until.Equal(now.Add(failover.DefaultBillingBackoff)) {
			t.Errorf("ReadOnly=%v: spare after a restart: available %v until %v (%v)", ro, ok, until, why)
		}
		if list, err := s.ProfileStates(ctx); err != nil || len(list) != 2 || list[0].ProfileID != "spare" || list[1].ProfileID != "work" {
			t.Errorf("ReadOnly=%v: ProfileStates gave %+v, %v", ro, list, err)
		}
		if ro {
			if _, err := s.Ledger().Update(ctx, "work", recordRateLimit); !errors.Is(err, ErrReadOnly) {
				t.Errorf("Update on a read-only store gave %v, want ErrReadOnly", err)
			}
			if err := s.ClearProfile(ctx, "work"); !errors.Is(err, ErrReadOnly) {
				t.Errorf("ClearProfile on a read-only store gave %v, want ErrReadOnly", err)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestClearProfileKeepsStatistics(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	full := fullState("p")
	if _, err := s.Ledger().Update(ctx, "p", func(failover.ProfileState) failover.ProfileState { return full }); err != nil {
		t.Fatal(err)
	}
	if err := s.ClearProfile(ctx, "p"); err != nil {
		t.Fatal(err)
	}
	got, err := s.Ledger().Load(ctx, "p")
	if err != nil {
		t.Fatal(err)
	}
	want := failover.ProfileState{
		ProfileID: "p", Failures: full.Failures, Successes: full.Successes,
		LastFailureAt: full.LastFailureAt, LastFailureReason: full.LastFailureReason, LastSuccessAt: full.LastSuccessAt,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("after ClearProfile\n%+v\nwant\n%+v", got, want)
	}
	if ok, _, _ := got.Available(full.LastFailureAt, "gpt-x"); !ok {
		t.Error("a cleared profile is still unavailable")
	}
	// Nothing to clear: no error, and no row appears.
	if err := s.ClearProfile(ctx, "never-seen"); err != nil {
		t.Fatal(err)
	}
	if list, err := s.ProfileStates(ctx); err != nil || len(list) != 1 {
		t.Fatalf("ProfileStates after clearing an unknown profile: %+v, %v", list, err)
	}
}

// TestLedgerCancelledUpdateChangesNothing: the Ledger contract — an Update
// abandoned through its context changed nothing.
func TestLedgerCancelledUpdateChangesNothing(t *testing.T) {
	s := openStore(t, t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Ledger().Update(ctx, "p", recordRateLimit); err == nil {
		t.Fatal("an Update with a cancelled context succeeded")
	}
	if list, err := s.ProfileStates(context.Background()); err != nil || len(list) != 0 {
		t.Fatalf("the cancelled Update left %+v, %v", list, err)
	}
}

// TestLedgerMigratesAnOlderDatabase opens a database a steer without the
// ledger (schema version 2) left, with a session in it: the migration adds
// the ledger and keeps the session.
func TestLedgerMigratesAnOlderDatabase(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := buildAtVersion(t, dir, 2)
	db, err := sql.Open(driverName, writerDSN(path))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO sessions (id, workspace, created_at, updated_at) VALUES ('old', '/work', 1, 1)`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	s := openStore(t, dir)
	if _, v := schemaOf(t, s.writer); v != len(embedded(t)) {
		t.Fatalf("version %d after the migration", v)
	}
	if _, err := s.Session(ctx, "old"); err != nil {
		t.Fatalf("the session from before the migration: %v", err)
	}
	if _, err := s.Ledger().Update(ctx, "p", recordRateLimit); err != nil {
		t.Fatal(err)
	}
	assertCounted(t, s.Ledger(), "p", 1)
}

// TestLedgerWritesStopWhenANewerSteerMigrates: like every write, a ledger
// update refuses a schema it does not know and writes nothing; reads go on.
func TestLedgerWritesStopWhenANewerSteerMigrates(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	if _, err := s.Ledger().Update(ctx, "p", recordRateLimit); err != nil {
		t.Fatal(err)
	}
	latest := len(embedded(t))
	if _, err := rawConn(t, s.Path()).ExecContext(ctx, "PRAGMA user_version = "+strconv.Itoa(latest+1)); err != nil {
		t.Fatal(err)
	}
	_, err := s.Ledger().Update(ctx, "p", recordRateLimit)
	var ne *NewerSchemaError
	if !errors.As(err, &ne) || ne.Version != latest+1 || ne.Supported != latest {
		t.Fatalf("an update after a newer steer migrated gave %v, want *NewerSchemaError", err)
	}
	if err := s.ClearProfile(ctx, "p"); !errors.As(err, &ne) {
		t.Errorf("ClearProfile after a newer steer migrated gave %v, want *NewerSchemaError", err)
	}
	assertCounted(t, s.Ledger(), "p", 1)
}

// TestLedgerSkipsReasonsItDoesNotKnow: a newer steer may store reason codes
// this one lacks; they read as unknown instead of failing the load.
func TestLedgerSkipsReasonsItDoesNotKnow(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	if _, err := s.writer.Exec(`INSERT INTO auth_profiles (profile_id, failures, last_failure_reason, reason_counts, updated_at)
		VALUES ('p', 3, 'quota_exhausted', '{"quota_exhausted":2,"auth":1}', 1)`); err != nil {
		t.Fatal(err)
	}
	got, err := s.Ledger().Load(ctx, "p")
	if err != nil {
		t.Fatal(err)
	}
	want := failover.ProfileState{ProfileID: "p", Failures: 3}
	want.ReasonCounts[failover.ReasonAuth] = 1
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("loaded %+v, want %+v", got, want)
	}
}
