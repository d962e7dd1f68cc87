package failover

import (
	"testing"
	"time"
)

func TestDecideCooldownWait(t *testing.T) {
	now := time.Date(2026, 12, 1, 20, 30, 0, 0, time.UTC)
	cool := func(id string, reason Reason, in time.Duration) Waiting {
		return Waiting{Profile: id, Model: "openai/gpt-4.1",
			Status: ProfileStatus{State: StateCooldown, Until: now.Add(in), Reason: reason}}
	}
	disabled := Waiting{Profile: "openai:b", Status: ProfileStatus{State: StateDisabled, Until: now.Add(5 * time.Hour), Reason: ReasonBilling}}
	hinted := cool("openai:a", ReasonRateLimit, 30*time.Second)
	hinted.HintEnd = now.Add(20 * time.Second)
	zero, ten := time.Duration(0), 10*time.Second
	cases := []struct {
		name  string
		f     WaitFacts
		cfg   Config
		wait  bool
		delay time.Duration
		rule  string
		who   string
	}{
		{"one 429 on the only key is waited out",
			WaitFacts{Waiting: []Waiting{cool("openai:a", ReasonRateLimit, 30*time.Second)}}, Config{}, true, 30 * time.Second, "wait", "openai:a"},
		{"the soonest of several windows",
			WaitFacts{Waiting: []Waiting{cool("openai:a", ReasonRateLimit, 50*time.Second), cool("openai:b", ReasonOverloaded, 5*time.Second)}},
			Config{}, true, 5 * time.Second, "wait", "openai:b"},
		{"a shorter Retry-After shortens the wait",
			WaitFacts{Waiting: []Waiting{hinted}}, Config{}, true, 20 * time.Second, "wait", "openai:a"},
		{"a timeout's window is transient too",
			WaitFacts{Waiting: []Waiting{cool("openai:a", ReasonTimeout, 30*time.Second)}}, Config{}, true, 30 * time.Second, "wait", "openai:a"},
		{"a window beyond the bound fails at once",
			WaitFacts{Waiting: []Waiting{cool("openai:a", ReasonRateLimit, 10*time.Minute)}}, Config{}, false, 0, "beyond_limit", "openai:a"},
		{"the bound is configurable",
			WaitFacts{Waiting: []Waiting{cool("openai:a", ReasonRateLimit, 30*time.Second)}}, Config{CooldownWait: &ten}, false, 0, "beyond_limit", "openai:a"},
		{"0 means no wait at all",
			WaitFacts{Waiting: []Waiting{cool("openai:a", ReasonRateLimit, time.Second)}}, Config{CooldownWait: &zero}, false, 0, "waits_disabled", "openai:a"},
		{"a mistyped model is not waited for",
			WaitFacts{Waiting: []Waiting{cool("openai:a", ReasonModelNotFound, 30*time.Second)}}, Config{}, false, 0, "not_transient", "openai:a"},
		{"auth is not waited for",
			WaitFacts{Waiting: []Waiting{cool("openai:a", ReasonAuth, 30*time.Second)}}, Config{}, false, 0, "not_transient", "openai:a"},
		{"a disabled key is not waited for",
			WaitFacts{Waiting: []Waiting{disabled}}, Config{}, false, 0, "not_transient", "openai:b"},
		{"a rate limit beside a disabled key is",
			WaitFacts{Waiting: []Waiting{disabled, cool("openai:a", ReasonRateLimit, 30*time.Second)}}, Config{}, true, 30 * time.Second, "wait", "openai:a"},
		{"the waits of a request are bounded",
			WaitFacts{Waiting: []Waiting{cool("openai:a", ReasonRateLimit, 30*time.Second)}, Waits: MaxCooldownWaits}, Config{}, false, 0, "wait_limit", "openai:a"},
		{"a timeout's window is waited once",
			WaitFacts{Waiting: []Waiting{cool("openai:a", ReasonTimeout, 30*time.Second)}, Waits: 1, TimeoutWaits: 1}, Config{}, false, 0, "timeout_waited", "openai:a"},
		{"a rate limit after a timeout's wait still is",
			WaitFacts{Waiting: []Waiting{cool("openai:a", ReasonRateLimit, 30*time.Second)}, Waits: 1, TimeoutWaits: 1}, Config{}, true, 30 * time.Second, "wait", "openai:a"},
		{"nothing to wait for when a candidate is available",
			WaitFacts{Waiting: []Waiting{cool("openai:a", ReasonRateLimit, 30*time.Second)}, Available: true}, Config{}, false, 0, "available", "openai:a"},
		{"nothing waits",
			WaitFacts{}, Config{}, false, 0, "nothing_waits", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.f.Now = now
			got := DecideCooldownWait(c.f, c.cfg)
			if got.Wait != c.wait || got.Delay != c.delay || got.Rule != c.rule || got.Soonest.Profile != c.who {
				t.Errorf("got wait=%v delay=%v rule=%s soonest=%q; want %v %v %s %q", got.Wait, got.Delay, got.Rule, got.Soonest.Profile, c.wait, c.delay, c.rule, c.who)
			}
		})
	}
}

func TestRetryDelaysAreBoundedByTheWaitLimit(t *testing.T) {
	zero, three := time.Duration(0), 3*time.Second
	short := Hint{After: 5 * time.Second, Source: SourceRetryAfter}
	cases := []struct {
		name  string
		f     RetryFacts
		cfg   Config
		retry bool
		rule  string
	}{
		{"a short hint beyond the bound", RetryFacts{Reason: ReasonRateLimit, Hint: short, Attempts: 1, Profiles: 1}, Config{CooldownWait: &three}, false, "hint_too_long"},
		{"no wait at all", RetryFacts{Reason: ReasonRateLimit, Hint: short, Attempts: 1, Profiles: 1}, Config{CooldownWait: &zero}, false, "hint_too_long"},
		{"the backoff beyond the bound", RetryFacts{Reason: ReasonOverloaded, Attempts: 1, Profiles: 1}, Config{CooldownWait: &zero}, false, "no_retry"},
		{"the second backoff beyond the bound", RetryFacts{Reason: ReasonOverloaded, Retries: 1, Attempts: 2, Profiles: 1}, Config{CooldownWait: &three}, false, "no_retry"},
		{"a stall is still retried at once", RetryFacts{Reason: ReasonTimeout, Attempts: 1, Profiles: 1}, Config{CooldownWait: &zero}, true, "timeout_once"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := DecideRetry(c.f, c.cfg)
			if got.Retry != c.retry || got.Rule != c.rule {
				t.Errorf("got retry=%v rule=%s; want %v %s", got.Retry, got.Rule, c.retry, c.rule)
			}
		})
	}
}
