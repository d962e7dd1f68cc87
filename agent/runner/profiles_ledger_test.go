package runner

import (
	"context"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/failover"
	"github.com/steer-tui/steer/persistence"
)

// ledgerUse is a profileLedger over an in-memory ledger, at clock's time,
// with the windows it announces as cleared and a run that running says is
// under way.
type ledgerUse struct {
	*profileLedger
	mem     *failover.MemLedger
	cleared []CooldownCleared
	run     bool
}

func newLedgerUse(t *testing.T, clock *fakeClock, preferred, locked string) *ledgerUse {
	t.Helper()
	known := catalogFor(nil, Provider{Name: "p", Profiles: []Profile{{ID: "p:a"}, {ID: "p:b"}, {ID: "p:c"}}})
	choice, err := newProfileChoice("", known, func(context.Context, persistence.ProfileChoice) error { return nil }, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	choice.set(preferred, locked)
	u := &ledgerUse{mem: &failover.MemLedger{}}
	u.profileLedger = &profileLedger{ledger: u.mem, choice: choice, now: clock.Now, log: slog.New(slog.DiscardHandler),
		cleared: func(c CooldownCleared) { u.cleared = append(u.cleared, c) },
		running: func() bool { return u.run }, writes: context.Background()}
	return u
}

func (u *ledgerUse) seed(t *testing.T, id string, fn func(failover.ProfileState) failover.ProfileState) {
	t.Helper()
	if _, err := u.mem.Update(context.Background(), id, fn); err != nil {
		t.Fatal(err)
	}
}

// TestProfileLedgerOrder: the usable profiles in the order a request tries
// them — the preferred first, a locked one alone, cooling ones left out —
// and a window found ended is cleared and announced.
func TestProfileLedgerOrder(t *testing.T) {
	m := agent.Model{Provider: "p", ID: "m"}
	prov := Provider{Name: "p", Profiles: []Profile{{ID: "p:a"}, {ID: "p:b"}, {ID: "p:c"}}}
	cases := []struct {
		name              string
		preferred, locked string
		cooling           []string // a 429 each, just now
		ended             string   // a 429 that was 10 min ago
		want              []string // usable, in order
		wantCleared       []CooldownCleared
	}{
		{name: "configured order", want: []string{"p:a", "p:b", "p:c"}},
		{name: "the preferred first", preferred: "p:c", want: []string{"p:c", "p:a", "p:b"}},
		{name: "the locked alone", locked: "p:b", want: []string{"p:b"}},
		{name: "cooling profiles are left out", cooling: []string{"p:a"}, want: []string{"p:b", "p:c"}},
		{name: "an ended window is cleared", ended: "p:b", want: []string{"p:a", "p:b", "p:c"},
			wantCleared: []CooldownCleared{{Profile: "p:b", Model: "m", Source: ClearedExpired}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clock := &fakeClock{now: agenttest.Epoch}
			u := newLedgerUse(t, clock, tc.preferred, tc.locked)
			for _, id := range tc.cooling {
				u.seed(t, id, failed429(clock.Now(), "", failover.Hint{}))
			}
			if tc.ended != "" {
				u.seed(t, tc.ended, failed429(clock.Now().Add(-10*time.Minute), "m", failover.Hint{}))
			}
			var got []string
			for _, c := range u.order(context.Background(), prov, m) {
				if c.Eligibility == failover.EligibleOK {
					got = append(got, c.ID)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("usable = %v, want %v", got, tc.want)
			}
			if !slices.Equal(u.cleared, tc.wantCleared) {
				t.Errorf("cleared = %v, want %v", u.cleared, tc.wantCleared)
			}
		})
	}
}

// TestProfileLedgerSuccesses: a success inside a run waits for its end; one
// outside a run is written at once.
func TestProfileLedgerSuccesses(t *testing.T) {
	for _, running := range []bool{true, false} {
		clock := &fakeClock{now: agenttest.Epoch}
		u := newLedgerUse(t, clock, "", "")
		u.run = running
		u.recordSuccess("p:a")
		u.wait()
		st, _ := u.mem.Load(context.Background(), "p:a")
		if wrote := st.Successes == 1; wrote == running {
			t.Errorf("running %v: a success was written before the run's end: %v", running, wrote)
		}
		u.settle(agent.AgentEnd{})
		u.wait()
		if st, _ = u.mem.Load(context.Background(), "p:a"); st.Successes != 1 || !st.LastSuccessAt.Equal(agenttest.Epoch) {
			t.Errorf("running %v: after the run %d successes, last at %v; want 1 at the answer's time", running, st.Successes, st.LastSuccessAt)
		}
	}
}

// TestProfileLedgerClear: a clear ends the windows in the store when there
// is one (every process), else in the ledger, and announces an open one.
func TestProfileLedgerClear(t *testing.T) {
	cases := []struct {
		name        string
		open        bool
		stored      bool
		wantCleared []CooldownCleared
	}{
		{name: "an open window, no store", open: true, wantCleared: []CooldownCleared{{Profile: "p:a", Source: ClearedByUser}}},
		{name: "an open window, the store", open: true, stored: true, wantCleared: []CooldownCleared{{Profile: "p:a", Source: ClearedByUser}}},
		{name: "nothing open says nothing"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clock := &fakeClock{now: agenttest.Epoch}
			u := newLedgerUse(t, clock, "", "")
			if tc.open {
				u.seed(t, "p:a", failed429(clock.Now(), "", failover.Hint{}))
			}
			var storeCleared []string
			if tc.stored {
				u.clearStored = func(_ context.Context, id string) error {
					storeCleared = append(storeCleared, id)
					return nil
				}
			}
			if err := u.clear(context.Background(), "p:a"); err != nil {
				t.Fatal(err)
			}
			st, _ := u.mem.Load(context.Background(), "p:a")
			if inLedger := st.Status(clock.Now()).State == failover.StateAvailable; inLedger == tc.stored && tc.open {
				t.Errorf("cleared in the ledger %v, want %v", inLedger, !tc.stored)
			}
			if tc.stored != (len(storeCleared) == 1) {
				t.Errorf("store cleared %v, want %v", storeCleared, tc.stored)
			}
			if !slices.Equal(u.cleared, tc.wantCleared) {
				t.Errorf("cleared = %v, want %v", u.cleared, tc.wantCleared)
			}
		})
	}
}
