package persistence

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/steer-tui/steer/failover"
)

// helperHintEnv is the Retry-After, in seconds, of the failures a
// "ledger-hinted" child records.
const helperHintEnv = "STEER_PERSISTENCE_HELPER_HINT"

// The hinted ledger child: like "ledger", but every rate_limit failure
// carries a Retry-After of helperHintEnv seconds.
func init() {
	helperRoles["ledger-hinted"] = func(dir, profile string, in *bufio.Scanner) error {
		n, err := strconv.Atoi(os.Getenv(helperCountEnv))
		if err != nil {
			return err
		}
		secs, err := strconv.Atoi(os.Getenv(helperHintEnv))
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
		hinted := recordHinted(time.Duration(secs) * time.Second)
		for i := range n {
			if _, err := s.Ledger().Update(context.Background(), profile, hinted); err != nil {
				return fmt.Errorf("update %d: %w", i+1, err)
			}
		}
		fmt.Println("done")
		return s.Close()
	}
}

// recordHinted records a rate_limit failure of model "m" at epoch whose
// response said Retry-After: after.
func recordHinted(after time.Duration) func(failover.ProfileState) failover.ProfileState {
	return func(p failover.ProfileState) failover.ProfileState {
		return p.RecordFailure(failover.Failure{At: epoch, Reason: failover.ReasonRateLimit, Model: "m", ProviderReached: true,
			Hint: failover.Hint{After: after, Source: failover.SourceRetryAfter}}, failover.Cooldowns{})
	}
}

// TestLedgerProcessesKeepTheLongestHint: processes record rate limits whose
// responses gave different Retry-After values, and this one records some
// without a hint: no failure is lost, and the window stored is the longest
// any provider asked for, with its source.
func TestLedgerProcessesKeepTheLongestHint(t *testing.T) {
	const perChild, here = 40, 20
	hints := []int{40, 120, 90}
	dir := t.TempDir()
	s := openStore(t, dir)
	var cs []*child
	for _, h := range hints {
		cs = append(cs, startChild(t, "ledger-hinted", dir, "openai:shared",
			helperCountEnv+"="+strconv.Itoa(perChild), helperHintEnv+"="+strconv.Itoa(h)))
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
	p := assertCounted(t, s.Ledger(), "openai:shared", len(hints)*perChild+here)
	if !p.CooldownUntil.Equal(epoch.Add(120*time.Second)) || p.CooldownSource != failover.SourceRetryAfter {
		t.Fatalf("window until +%v from %q, want +2m0s from retry-after", p.CooldownUntil.Sub(epoch), p.CooldownSource)
	}
}

// TestLedgerSourceRoundTripsAndClears: a hinted cooldown's source is stored,
// read back, and cleared with the window.
func TestLedgerSourceRoundTripsAndClears(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	got, err := s.Ledger().Update(ctx, "p", recordHinted(2*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := s.Ledger().Load(ctx, "p")
	if err != nil || loaded != got || loaded.CooldownSource != failover.SourceRetryAfter {
		t.Fatalf("loaded %+v, %v; want %+v", loaded, err, got)
	}
	if src := loaded.UntilSource(epoch.Add(time.Second)); src != failover.SourceRetryAfter {
		t.Fatalf("UntilSource %q", src)
	}
	if err := s.ClearProfile(ctx, "p"); err != nil {
		t.Fatal(err)
	}
	if cleared, _ := s.Ledger().Load(ctx, "p"); cleared.CooldownSource != "" || !cleared.CooldownUntil.IsZero() {
		t.Fatalf("after ClearProfile: %+v", cleared)
	}
}

// TestLedgerSourceMigration: a cooldown written before migration 0006 reads
// as the schedule's.
func TestLedgerSourceMigration(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := buildAtVersion(t, dir, 5)
	db, err := sql.Open(driverName, writerDSN(path))
	if err != nil {
		t.Fatal(err)
	}
	until := epoch.Add(30 * time.Second).UnixMilli()
	if _, err := db.Exec(`INSERT INTO auth_profiles (profile_id, failures, error_count, reason_counts, cooldown_until,
		cooldown_model, cooldown_reason, updated_at) VALUES ('old', 1, 1, '{"rate_limit":1}', ?, 'm', 'rate_limit', 1)`, until); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s := openStore(t, dir)
	p, err := s.Ledger().Load(ctx, "old")
	if err != nil {
		t.Fatal(err)
	}
	if p.CooldownSource != "" || p.UntilSource(epoch.Add(time.Second)) != failover.SourceSchedule {
		t.Fatalf("a cooldown from before 0006: %+v", p)
	}
}
