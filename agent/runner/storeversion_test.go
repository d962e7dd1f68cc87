package runner

import (
	"context"
	"testing"

	"github.com/steer-tui/steer/failover"
	"github.com/steer-tui/steer/persistence"
)

// TestStoreVersion: the counter moves for another process's write to the
// ledger, not for this one's; without a store it is 0.
func TestStoreVersion(t *testing.T) {
	ctx := context.Background()
	if v, err := (&Runtime{inspectors: &inspectors{}}).StoreVersion(ctx); v != 0 || err != nil {
		t.Fatalf("without a store: %d, %v", v, err)
	}
	dir := t.TempDir()
	open := func() *persistence.Store {
		s, err := persistence.Open(dir, persistence.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		return s
	}
	mine, other := open(), open()
	rt := &Runtime{inspectors: &inspectors{store: mine}}
	version := func() uint64 {
		t.Helper()
		v, err := rt.StoreVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	fail := func(s *persistence.Store) {
		t.Helper()
		if _, err := s.Ledger().Update(ctx, "p:a", func(st failover.ProfileState) failover.ProfileState {
			return st.RecordFailure(failover.Failure{Reason: failover.ReasonRateLimit, ProviderReached: true}, failover.Cooldowns{})
		}); err != nil {
			t.Fatal(err)
		}
	}
	start := version()
	fail(mine)
	if v := version(); v != start {
		t.Fatalf("this process's write moved it: %d → %d", start, v)
	}
	fail(other)
	if v := version(); v == start {
		t.Fatal("another process's write left it")
	}
}
