package failover

import (
	"context"
	"sync"
	"testing"
)

func TestMemLedger(t *testing.T) {
	ctx := context.Background()
	var l MemLedger
	st, err := l.Load(ctx, "p")
	if err != nil || st != (ProfileState{ProfileID: "p"}) {
		t.Fatalf("Load of an unknown profile = %+v, %v; want the zero state with its id", st, err)
	}
	got, err := l.Update(ctx, "p", func(s ProfileState) ProfileState {
		s.ProfileID = "someone else"
		return s.RecordFailure(Failure{At: t0, Reason: ReasonAuth, ProviderReached: true}, Cooldowns{})
	})
	if err != nil || got.ProfileID != "p" || got.Failures != 1 {
		t.Fatalf("Update = %+v, %v", got, err)
	}
	if back, _ := l.Load(ctx, "p"); back != got {
		t.Errorf("Load after Update = %+v, want %+v", back, got)
	}
	if other, _ := l.Load(ctx, "q"); other.Failures != 0 {
		t.Errorf("a failure touched an unrelated profile: %+v", other)
	}
}

func TestMemLedgerUpdatesAreAtomic(t *testing.T) {
	var l MemLedger
	var wg sync.WaitGroup
	const n = 50
	for range n {
		wg.Go(func() {
			_, _ = l.Update(context.Background(), "p", func(s ProfileState) ProfileState { return s.RecordSuccess(t0) })
		})
	}
	wg.Wait()
	if st, _ := l.Load(context.Background(), "p"); st.Successes != n {
		t.Errorf("Successes = %d, want %d", st.Successes, n)
	}
}

func TestMemLedgerHonoursCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var l MemLedger
	if _, err := l.Update(ctx, "p", func(s ProfileState) ProfileState { return s.RecordSuccess(t0) }); err == nil {
		t.Error("Update on a cancelled context succeeded")
	}
	if st, _ := l.Load(context.Background(), "p"); st.Successes != 0 {
		t.Errorf("a cancelled Update changed the state: %+v", st)
	}
	if _, err := l.Load(ctx, "p"); err == nil {
		t.Error("Load on a cancelled context succeeded")
	}
}
