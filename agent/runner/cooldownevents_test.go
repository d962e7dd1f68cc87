package runner

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/failover"
)

var evT0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func failed429(at time.Time, model string, hint failover.Hint) func(failover.ProfileState) failover.ProfileState {
	return func(st failover.ProfileState) failover.ProfileState {
		return st.RecordFailure(failover.Failure{At: at, Reason: failover.ReasonRateLimit, Model: model, ProviderReached: true, Hint: hint},
			failover.Cooldowns{})
	}
}

func TestWindowChange(t *testing.T) {
	fresh := failover.ProfileState{}
	cooling := failed429(evT0, "big", failover.Hint{})(fresh) // big until +30 s
	billing := func(st failover.ProfileState) failover.ProfileState {
		return st.RecordFailure(failover.Failure{At: evT0, Reason: failover.ReasonBilling, Model: "big", ProviderReached: true}, failover.Cooldowns{})
	}
	cases := []struct {
		name          string
		before, after failover.ProfileState
		want          CooldownInfo
		changed       bool
	}{
		{"opened", fresh, cooling,
			CooldownInfo{Profile: "p:a", Model: "big", State: "cooldown", Reason: "rate_limit", Until: evT0.Add(30 * time.Second), Source: "schedule"}, true},
		{"a failure inside the window leaves it", cooling, failed429(evT0.Add(time.Second), "big", failover.Hint{})(cooling), CooldownInfo{}, false},
		{"lengthened by a hint", cooling, failed429(evT0.Add(time.Second), "big", failover.Hint{After: time.Minute, Source: "retry-after"})(cooling),
			CooldownInfo{Profile: "p:a", Model: "big", State: "cooldown", Reason: "rate_limit", Until: evT0.Add(61 * time.Second), Source: "retry-after"}, true},
		{"widened by another model", cooling, failed429(evT0.Add(time.Second), "small", failover.Hint{})(cooling),
			CooldownInfo{Profile: "p:a", State: "cooldown", Reason: "rate_limit", Until: evT0.Add(30 * time.Second), Source: "schedule"}, true},
		{"disabled", fresh, billing(fresh),
			CooldownInfo{Profile: "p:a", State: "disabled", Reason: "billing", Until: evT0.Add(5 * time.Hour), Source: "schedule"}, true},
		{"nothing ledgered", fresh, fresh, CooldownInfo{}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, changed := windowChange("p:a", c.before, c.after, evT0.Add(time.Second))
			if changed != c.changed || got != c.want {
				t.Errorf("windowChange = %+v, %v; want %+v, %v", got, changed, c.want, c.changed)
			}
		})
	}
}

func TestCooldownLines(t *testing.T) {
	until := time.Date(2025, 3, 1, 12, 0, 30, 0, time.Local)
	cases := []struct{ got, want string }{
		{CooldownInfo{Profile: "p:a", Model: "big", Reason: "rate_limit", Until: until}.Line(), "cooldown: p:a/big rate_limit until 12:00:30"},
		{CooldownInfo{Profile: "p:a", Reason: "billing", Until: until}.Line(), "cooldown: p:a billing until 12:00:30"},
		{CooldownCleared{Profile: "p:a", Model: "big", Source: ClearedExpired}.Line(), "cooldown cleared: p:a/big (expired)"},
		{CooldownCleared{Profile: "p:a", Source: ClearedByUser}.Line(), "cooldown cleared: p:a (user)"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("line = %q, want %q", c.got, c.want)
		}
	}
}

// cooldownRuntime is a runtime on profiles p:a and p:b whose provider
// fails p:a with a 429 while fail429 says so; it collects the cooldown
// annotations and notices.
type cooldownRuntime struct {
	*Runtime
	mu       sync.Mutex
	cooldown []CooldownInfo
	cleared  []CooldownCleared
}

func newCooldownRuntime(t *testing.T, clock *fakeClock, fail func(profile string) bool) *cooldownRuntime {
	t.Helper()
	rateLimited := &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 429, Type: "rate_limit_error", Message: "Rate limit reached"}
	p := &byProfile{fail: func(profile, _ string) *agent.ProviderError {
		if fail(profile) {
			return rateLimited
		}
		return nil
	}}
	rt, err := New(context.Background(), Options{
		Providers: []Provider{{Name: "p", Models: []agent.Model{primary}, Stream: p.stream,
			Profiles: []Profile{{ID: "p:a"}, {ID: "p:b"}}}},
		Model: "p/big", Now: clock.Now, Failover: noCooldownWait,
	})
	if err != nil {
		t.Fatal(err)
	}
	c := &cooldownRuntime{Runtime: rt}
	rt.Subscribe(func(ev agent.Event) {
		if a, ok := ev.(agent.Annotation); ok && a.Kind == AnnotationCooldown {
			c.mu.Lock()
			c.cooldown = append(c.cooldown, a.Data.(CooldownInfo))
			c.mu.Unlock()
		}
	})
	rt.SubscribeNotices(func(n Notice) {
		if n.Kind == NoticeCooldownCleared {
			c.mu.Lock()
			c.cleared = append(c.cleared, n.Data.(CooldownCleared))
			c.mu.Unlock()
		}
	})
	return c
}

func (c *cooldownRuntime) run(t *testing.T) {
	t.Helper()
	if err := c.Prompt(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, c.Runtime)
}

func (c *cooldownRuntime) events() ([]CooldownInfo, []CooldownCleared) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]CooldownInfo(nil), c.cooldown...), append([]CooldownCleared(nil), c.cleared...)
}

// TestCooldownEvents: a 429 on p:a announces its window on the run's
// stream; a clear by the user and a window found over are announced as
// notices.
func TestCooldownEvents(t *testing.T) {
	clock := &fakeClock{now: evT0}
	rt := newCooldownRuntime(t, clock, func(profile string) bool { return profile == "p:a" })
	rt.run(t)
	cooldowns, cleared := rt.events()
	want := CooldownInfo{Profile: "p:a", Model: "big", State: "cooldown", Reason: "rate_limit", Until: evT0.Add(30 * time.Second), Source: "schedule"}
	if len(cooldowns) != 1 || cooldowns[0] != want || len(cleared) != 0 {
		t.Fatalf("after the 429: cooldown %+v, cleared %+v; want one cooldown %+v", cooldowns, cleared, want)
	}

	if err := rt.ClearProfile(context.Background(), "p:a"); err != nil {
		t.Fatal(err)
	}
	if err := rt.ClearProfile(context.Background(), "p:b"); err != nil { // nothing to clear: no event
		t.Fatal(err)
	}
	_, cleared = rt.events()
	if len(cleared) != 1 || cleared[0] != (CooldownCleared{Profile: "p:a", Model: "big", Source: ClearedByUser}) {
		t.Fatalf("after the clear: %+v, want p:a's by the user", cleared)
	}

	rt.run(t) // p:a cools down again
	_ = clock.Sleep(context.Background(), time.Minute)
	rt.run(t) // its window is over: cleared before ordering
	cooldowns, cleared = rt.events()
	if len(cooldowns) != 3 {
		t.Errorf("cooldowns = %+v, want one per run", cooldowns)
	}
	if len(cleared) != 2 || cleared[1] != (CooldownCleared{Profile: "p:a", Model: "big", Source: ClearedExpired}) {
		t.Errorf("cleared = %+v, want p:a's expiry last", cleared)
	}
}
