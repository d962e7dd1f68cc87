package runner

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/failover"
)

// fakeClock is a clock that only a wait moves: Sleep advances it by d and
// returns at once, so a 30 s cooldown is waited out in no time.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	waits []time.Duration
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waits = append(c.waits, d)
	c.now = c.now.Add(d)
	return ctx.Err()
}

func (c *fakeClock) slept() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.waits...)
}

func limited429(after string) *agent.ProviderError {
	perr := &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 429, Type: "rate_limit_error", Message: "Rate limit reached"}
	if after != "" {
		perr.Header = map[string][]string{"Retry-After": {after}}
	}
	return perr
}

// TestCooldownWait runs one prompt on a provider with the single profile
// p:a, whose first requests fail as fails says: the request waits for the
// cooldown it opened when the policy allows, and fails saying until when
// otherwise.
func TestCooldownWait(t *testing.T) {
	zero, ten := time.Duration(0), 10*time.Second
	cases := []struct {
		name     string
		fails    []*agent.ProviderError
		seed     func(now time.Time) failover.ProfileState // an earlier process's ledger entry
		cfg      failover.Config
		waits    []time.Duration
		requests int
		errorHas []string // empty: the answer comes
		ledger   time.Duration
	}{
		{name: "one 429 without Retry-After is waited out for 30 s",
			fails: []*agent.ProviderError{limited429("")}, waits: []time.Duration{30 * time.Second}, requests: 2},
		{name: "a Retry-After shorter than the schedule shortens the wait, not the window",
			fails: []*agent.ProviderError{limited429("20")}, waits: []time.Duration{20 * time.Second}, requests: 2,
			ledger: 30 * time.Second},
		{name: "a cooldown an earlier process left is waited for the same way",
			seed: func(now time.Time) failover.ProfileState {
				return failover.ProfileState{ErrorCount: 1, CooldownUntil: now.Add(25 * time.Second), CooldownReason: failover.ReasonRateLimit}
			},
			waits: []time.Duration{25 * time.Second}, requests: 1},
		{name: "a Retry-After beyond the bound fails at once, saying until when and how to clear it",
			fails: []*agent.ProviderError{limited429("600")}, requests: 1,
			errorHas: []string{"Rate limit reached", "p:a cools down for rate_limit until ", "in 10m0s", "/profiles → c", "steer inspect profiles --clear p:a"},
			ledger:   10 * time.Minute},
		{name: "a bound of 0 fails at once",
			fails: []*agent.ProviderError{limited429("")}, cfg: failover.Config{CooldownWait: &zero}, requests: 1,
			errorHas: []string{"until ", "in 30s", "auth.maxCooldownWaitSeconds is 0"}, ledger: 30 * time.Second},
		{name: "a smaller bound than the window fails at once",
			fails: []*agent.ProviderError{limited429("")}, cfg: failover.Config{CooldownWait: &ten}, requests: 1,
			errorHas: []string{"in 30s"}, ledger: 30 * time.Second},
		{name: "a model that does not exist is not waited for",
			fails: []*agent.ProviderError{{Kind: agent.ErrorHTTP, Status: 404, Message: "The model `big` does not exist"}}, requests: 1,
			errorHas: []string{"does not exist"}},
		{name: "a revoked key is not waited for",
			fails: []*agent.ProviderError{{Kind: agent.ErrorHTTP, Status: 401, Message: "invalid api key"}}, requests: 1,
			errorHas: []string{"invalid api key", "p:a cools down for auth until"}, ledger: 30 * time.Second},
		{name: "a provider that keeps refusing is waited for at most MaxCooldownWaits times",
			fails: []*agent.ProviderError{limited429(""), limited429(""), limited429(""), limited429(""), limited429("")},
			waits: []time.Duration{30 * time.Second, 30 * time.Second, 30 * time.Second}, requests: 4,
			errorHas: []string{"Rate limit reached", "until "}, ledger: 30 * time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clock := &fakeClock{now: time.Date(2026, 12, 1, 20, 30, 0, 0, time.UTC)}
			start := clock.Now()
			ledger := &failover.MemLedger{}
			if tc.seed != nil {
				if _, err := ledger.Update(context.Background(), "p:a", func(failover.ProfileState) failover.ProfileState { return tc.seed(start) }); err != nil {
					t.Fatal(err)
				}
			}
			c := &counted{fail: func(n int, _, _ string) *agent.ProviderError {
				if n <= len(tc.fails) {
					return tc.fails[n-1]
				}
				return nil
			}}
			rt, err := New(context.Background(), Options{
				Providers: []Provider{{Name: "p", Models: []agent.Model{primary}, Stream: c.stream, Profiles: []Profile{{ID: "p:a"}}}},
				Model:     "p/big", Ledger: ledger, Now: clock.Now, Sleep: clock.Sleep, Failover: tc.cfg,
			})
			if err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			var starts []RetryStartInfo
			var ends []RetryEndInfo
			rt.Subscribe(func(ev agent.Event) {
				a, ok := ev.(agent.Annotation)
				if !ok {
					return
				}
				mu.Lock()
				defer mu.Unlock()
				switch d := a.Data.(type) {
				case RetryStartInfo:
					starts = append(starts, d)
				case RetryEndInfo:
					ends = append(ends, d)
				}
			})
			if err := rt.Prompt(context.Background(), "hi"); err != nil {
				t.Fatal(err)
			}
			waitIdle(t, rt)
			msgs := rt.State().Messages
			last := msgs[len(msgs)-1]

			if got := clock.slept(); fmt.Sprint(got) != fmt.Sprint(tc.waits) {
				t.Errorf("waited %v, want %v", got, tc.waits)
			}
			if c.n != tc.requests {
				t.Errorf("%d requests, want %d", c.n, tc.requests)
			}
			if len(tc.errorHas) == 0 && last.StopReason != agent.StopReasonStop {
				t.Errorf("last message %s %q, want the answer", last.StopReason, last.ErrorMessage)
			}
			for _, want := range tc.errorHas {
				if last.StopReason != agent.StopReasonError || !strings.Contains(last.ErrorMessage, want) {
					t.Errorf("last message %s %q, want an error with %q", last.StopReason, last.ErrorMessage, want)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if len(starts) != len(tc.waits) {
				t.Fatalf("auto_retry_start %+v, want one per wait %v", starts, tc.waits)
			}
			for i, s := range starts {
				if !s.Cooldown || s.Profile != "p:a" || s.Reason != "rate_limit" || s.DelayMs != tc.waits[i].Milliseconds() ||
					s.Attempt != i+1 || s.MaxAttempts != failover.MaxCooldownWaits || s.Until == nil {
					t.Errorf("auto_retry_start %d = %+v", i, s)
				}
			}
			if len(tc.waits) > 0 && (len(ends) != 1 || ends[0].Success != (len(tc.errorHas) == 0) || ends[0].Attempt != len(tc.waits)) {
				t.Errorf("auto_retry_end %+v, want one, success %v", ends, len(tc.errorHas) == 0)
			}
			st, _ := ledger.Load(context.Background(), "p:a")
			if tc.ledger > 0 && len(tc.waits) <= 1 && !st.CooldownUntil.Equal(start.Add(tc.ledger)) {
				t.Errorf("ledger window until %v, want %v after the failure", st.CooldownUntil, tc.ledger)
			}
		})
	}
}

// TestCooldownWaitEndsOnAbort: Esc during a cooldown wait ends it at once,
// with an aborted message and the auto_retry_end that says why.
func TestCooldownWaitEndsOnAbort(t *testing.T) {
	sleep := &fakeSleep{block: true, waiting: make(chan struct{})}
	c := &counted{fail: func(int, string, string) *agent.ProviderError { return limited429("") }}
	rt, err := New(context.Background(), Options{
		Providers: []Provider{{Name: "p", Models: []agent.Model{primary}, Stream: c.stream, Profiles: []Profile{{ID: "p:a"}}}},
		Model:     "p/big", Ledger: &failover.MemLedger{}, Now: time.Now, Sleep: sleep.sleep,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := rt.Prompt(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	<-sleep.waiting
	rt.Abort()
	waitIdle(t, rt)
	msgs := rt.State().Messages
	if last := msgs[len(msgs)-1]; last.StopReason != agent.StopReasonAborted {
		t.Errorf("last message %s %q, want aborted", last.StopReason, last.ErrorMessage)
	}
	if c.n != 1 {
		t.Errorf("%d requests, want 1", c.n)
	}
}
