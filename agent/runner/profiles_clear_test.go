package runner

import (
	"context"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/failover"
)

// TestClearProfile: clearing ends a profile's windows in the ledger (in
// memory, and in the shared one of a state directory) and keeps its
// statistics; an unknown profile is refused.
func TestClearProfile(t *testing.T) {
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	fail := func(st failover.ProfileState, r failover.Reason) failover.ProfileState {
		return st.RecordFailure(failover.Failure{At: now, Reason: r, Model: "big", ProviderReached: true}, failover.Cooldowns{})
	}
	for _, withStore := range []bool{false, true} {
		opts := Options{Providers: []Provider{{Name: "p", Models: []agent.Model{primary},
			Stream: (&byProfile{}).stream, Profiles: []Profile{{ID: "p:a"}, {ID: "p:b"}}}},
			Now: func() time.Time { return now }}
		if withStore {
			store := openStore(t, t.TempDir())
			t.Cleanup(func() { store.Close() })
			opts.Store, opts.Ledger = store, store.Ledger()
		}
		rt, err := New(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		for _, r := range []failover.Reason{failover.ReasonRateLimit, failover.ReasonBilling} {
			if _, err := rt.ledger.Update(ctx, "p:a", func(st failover.ProfileState) failover.ProfileState { return fail(st, r) }); err != nil {
				t.Fatal(err)
			}
		}
		if v := rt.mustProfile(t, "p:a"); v.State != failover.StateDisabled {
			t.Fatalf("store %v: before clearing p:a is %s", withStore, v.State)
		}
		if err := rt.ClearProfile(ctx, "p:a"); err != nil {
			t.Fatal(err)
		}
		v := rt.mustProfile(t, "p:a")
		if v.State != failover.StateAvailable || v.Until != nil || v.ErrorCount != 0 || v.Failures != 2 {
			t.Fatalf("store %v: after clearing p:a = %+v, want available with its 2 failures kept", withStore, v)
		}
		if err := rt.ClearProfile(ctx, "p:nope"); err == nil {
			t.Fatalf("store %v: clearing an unknown profile succeeded", withStore)
		}
	}
}

func (r *Runtime) mustProfile(t *testing.T, id string) ProfileView {
	t.Helper()
	views, err := r.Profiles(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range views {
		if v.ID == id {
			return v
		}
	}
	t.Fatalf("no profile %s in %+v", id, views)
	return ProfileView{}
}
