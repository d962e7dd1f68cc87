package persistence

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/steer-tui/steer/failover"
)

// TestDataVersion: the counter stays put for the store's own writes and
// moves when another store on the directory (another process's
// connection) commits; a read-only store has none.
func TestDataVersion(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	mine, other := openStore(t, dir), openStore(t, dir)
	fail := func(s *Store, id string) {
		t.Helper()
		_, err := s.Ledger().Update(ctx, id, func(st failover.ProfileState) failover.ProfileState {
			return st.RecordFailure(failover.Failure{At: epoch, Reason: failover.ReasonRateLimit, ProviderReached: true}, failover.Cooldowns{})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	version := func() uint64 {
		t.Helper()
		v, err := mine.DataVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	start := version()
	if v := version(); v != start {
		t.Fatalf("two reads with nothing written: %d then %d", start, v)
	}
	fail(mine, "p:a")
	if v := version(); v != start {
		t.Fatalf("after this store's own write: %d, want %d", v, start)
	}
	fail(other, "p:b")
	moved := version()
	if moved == start {
		t.Fatalf("after another store's write the counter stayed at %d", start)
	}
	if v := version(); v != moved {
		t.Fatalf("read again: %d, want %d", v, moved)
	}

	ro, err := Open(dir, Options{ReadOnly: true, Now: time.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.DataVersion(ctx); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("read-only store: %v, want ErrReadOnly", err)
	}
}
