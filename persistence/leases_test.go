package persistence

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/lanes"
)

// manualClock moves only when told.
type manualClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *manualClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// leaseFixture is a store on a manual clock with sessions s1 and s2.
type leaseFixture struct {
	t     *testing.T
	store *Store
	clock *manualClock
	ctx   context.Context
}

func newLeaseFixture(t *testing.T) *leaseFixture {
	f := &leaseFixture{t: t, clock: &manualClock{t: epoch}, ctx: context.Background()}
	s, err := Open(t.TempDir(), Options{Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	f.store = s
	for _, id := range []string{"s1", "s2"} {
		if err := s.CreateSession(f.ctx, Session{ID: id, Workspace: "/work"}); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// enqueue queues items for s1, one millisecond apart, each text its id.
func (f *leaseFixture) enqueue(ids ...string) {
	f.t.Helper()
	for _, id := range ids {
		f.clock.Advance(time.Millisecond)
		if err := f.store.EnqueueSteering(f.ctx, SteeringItem{ID: id, SessionID: "s1", Source: "child-" + id, Text: "text " + id}); err != nil {
			f.t.Fatal(err)
		}
	}
}

// lease leases s1's items and checks which it got.
func (f *leaseFixture) lease(want ...string) string {
	f.t.Helper()
	lease, items, err := f.store.LeaseSteering(f.ctx, "s1")
	if err != nil {
		f.t.Fatal(err)
	}
	if got := itemIDs(items); !slices.Equal(got, want) {
		f.t.Fatalf("lease took %v, want %v", got, want)
	}
	if (lease == "") != (len(want) == 0) {
		f.t.Fatalf("lease id %q for %d items", lease, len(want))
	}
	for _, it := range items {
		if it.LeaseID != lease || !it.Leased.Equal(fromMS(ms(f.clock.Now()))) || it.Text != "text "+it.ID || it.Source != "child-"+it.ID {
			f.t.Fatalf("leased item %+v (lease %s)", it, lease)
		}
	}
	return lease
}

// pending checks s1's pending items.
func (f *leaseFixture) pending(want ...string) {
	f.t.Helper()
	items, err := f.store.PendingSteering(f.ctx, "s1")
	if err != nil {
		f.t.Fatal(err)
	}
	if got := itemIDs(items); !slices.Equal(got, want) {
		f.t.Fatalf("pending %v, want %v", got, want)
	}
}

func itemIDs(items []SteeringItem) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it.ID)
	}
	return out
}

func TestSteeringLeases(t *testing.T) {
	// Each case starts with a, b and c queued for s1 and leased as l1.
	cases := []struct {
		name string
		act  func(f *leaseFixture, l1 string) error // the last step's error is checked
		want []string                               // pending afterwards
		err  error
	}{
		{"leased items are not pending", func(f *leaseFixture, l1 string) error { return nil }, nil, nil},
		{"ack deletes them all", func(f *leaseFixture, l1 string) error {
			return f.store.AckSteering(f.ctx, l1)
		}, nil, nil},
		{"ack some, release the rest", func(f *leaseFixture, l1 string) error {
			if err := f.store.AckSteering(f.ctx, l1, "a"); err != nil {
				return err
			}
			return f.store.ReleaseSteering(f.ctx, l1)
		}, []string{"b", "c"}, nil},
		{"release returns them in their order", func(f *leaseFixture, l1 string) error {
			return f.store.ReleaseSteering(f.ctx, l1)
		}, []string{"a", "b", "c"}, nil},
		{"a lease of five minutes is not stale yet", func(f *leaseFixture, l1 string) error {
			f.clock.Advance(StaleLease)
			return nil
		}, nil, nil},
		{"a lease older than five minutes is re-queued", func(f *leaseFixture, l1 string) error {
			f.clock.Advance(StaleLease + time.Millisecond)
			return nil
		}, []string{"a", "b", "c"}, nil},
		{"a stale lease's ack counts until another lease takes the items", func(f *leaseFixture, l1 string) error {
			f.clock.Advance(StaleLease + time.Minute)
			return f.store.AckSteering(f.ctx, l1)
		}, nil, nil},
		{"the stale holder's ack is refused once they are re-leased", func(f *leaseFixture, l1 string) error {
			f.clock.Advance(StaleLease + time.Minute)
			f.lease("a", "b", "c")
			return f.store.AckSteering(f.ctx, l1, "a")
		}, nil, ErrLeaseLost},
		{"the stale holder's release leaves the new lease alone", func(f *leaseFixture, l1 string) error {
			f.clock.Advance(StaleLease + time.Minute)
			l2 := f.lease("a", "b", "c")
			if err := f.store.ReleaseSteering(f.ctx, l1); err != nil {
				return err
			}
			return f.store.AckSteering(f.ctx, l2)
		}, nil, nil},
		{"acking an item twice reports the second", func(f *leaseFixture, l1 string) error {
			if err := f.store.AckSteering(f.ctx, l1, "a", "b"); err != nil {
				return err
			}
			return f.store.AckSteering(f.ctx, l1, "b", "c")
		}, nil, ErrLeaseLost},
		{"items queued after the lease wait for the next", func(f *leaseFixture, l1 string) error {
			f.enqueue("d")
			return nil
		}, []string{"d"}, nil},
		{"another session's items are its own", func(f *leaseFixture, l1 string) error {
			return f.store.EnqueueSteering(f.ctx, SteeringItem{ID: "x", SessionID: "s2", Text: "for s2"})
		}, nil, nil},
		{"an unknown lease acks nothing", func(f *leaseFixture, l1 string) error {
			return f.store.AckSteering(f.ctx, "lease-unknown")
		}, nil, ErrLeaseLost},
		{"a released lease has nothing left to release", func(f *leaseFixture, l1 string) error {
			if err := f.store.ReleaseSteering(f.ctx, l1); err != nil {
				return err
			}
			return f.store.ReleaseSteering(f.ctx, l1)
		}, []string{"a", "b", "c"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newLeaseFixture(t)
			f.enqueue("a", "b", "c")
			l1 := f.lease("a", "b", "c")
			err := tc.act(f, l1)
			if tc.err == nil && err != nil || tc.err != nil && !errors.Is(err, tc.err) {
				t.Fatalf("err = %v, want %v", err, tc.err)
			}
			f.pending(tc.want...)
			f.lease(tc.want...) // what is pending is what the next lease takes
		})
	}
}

func TestEnqueueSteeringChecks(t *testing.T) {
	f := newLeaseFixture(t)
	cases := []struct {
		name string
		item SteeringItem
		want error
	}{
		{"an unknown session", SteeringItem{ID: "a", SessionID: "nope", Text: "t"}, ErrNotFound},
		{"no id", SteeringItem{SessionID: "s1", Text: "t"}, nil},
		{"no session", SteeringItem{ID: "a", Text: "t"}, nil},
	}
	for _, tc := range cases {
		err := f.store.EnqueueSteering(f.ctx, tc.item)
		if err == nil || tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: EnqueueSteering = %v, want an error (%v)", tc.name, err, tc.want)
		}
	}
	f.enqueue("a")
	if err := f.store.EnqueueSteering(f.ctx, SteeringItem{ID: "a", SessionID: "s1", Text: "again"}); err == nil {
		t.Error("a duplicate item id was stored")
	}
	f.pending("a")
}

func TestSteeringSurvivesReopening(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	s := openStore(t, dir)
	if err := s.CreateSession(ctx, Session{ID: "s1"}); err != nil {
		t.Fatal(err)
	}
	if err := s.EnqueueSteering(ctx, SteeringItem{ID: "a", SessionID: "s1", Text: "result"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.LeaseSteering(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// A new process finds the leased item, and takes it once the lease is
	// stale.
	clock := &manualClock{t: time.Now().Add(StaleLease + time.Second)}
	s2, err := Open(dir, Options{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	lease, items, err := s2.LeaseSteering(ctx, "s1")
	if err != nil || len(items) != 1 || items[0].Text != "result" {
		t.Fatalf("LeaseSteering = %q, %+v, %v", lease, items, err)
	}
}

// The runner's round: lease, merge under the cap, inject, ack what went in,
// release the rest for the next round.
func TestLeasedItemsMergeUnderTheCap(t *testing.T) {
	f := newLeaseFixture(t)
	big := strings.Repeat("x", 10_000)
	for _, id := range []string{"a", "b", "c"} {
		f.clock.Advance(time.Millisecond)
		if err := f.store.EnqueueSteering(f.ctx, SteeringItem{ID: id, SessionID: "s1", Text: big}); err != nil {
			t.Fatal(err)
		}
	}
	lease, items, err := f.store.LeaseSteering(f.ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	texts := make([]string, len(items))
	for i, it := range items {
		texts[i] = it.Text
	}
	prompt, n := lanes.MergeSteering(texts)
	if n != 2 || len(prompt) > lanes.MaxMergedSteering || !strings.HasPrefix(prompt, lanes.SteeringPreamble) {
		t.Fatalf("merged %d items into %d characters", n, len(prompt))
	}
	if err := f.store.AckSteering(f.ctx, lease, itemIDs(items[:n])...); err != nil {
		t.Fatal(err)
	}
	if err := f.store.ReleaseSteering(f.ctx, lease); err != nil {
		t.Fatal(err)
	}
	f.pending("c")
}
