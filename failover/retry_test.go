package failover

import (
	"testing"
	"time"
)

func TestDecideRetry(t *testing.T) {
	short := Hint{After: 3 * time.Second, Source: SourceRetryAfter}
	long := Hint{After: 120 * time.Second, Source: SourceRetryAfter}
	limit := AttemptLimit(1, Config{})
	cases := []struct {
		name string
		f    RetryFacts
		want Retry
	}{
		{"a stall is retried once, at once",
			RetryFacts{Reason: ReasonTimeout, Attempts: 1, Profiles: 1}, Retry{Retry: true, Max: 1, Rule: "timeout_once"}},
		{"a second stall is not",
			RetryFacts{Reason: ReasonTimeout, Retries: 1, Attempts: 2, Profiles: 1}, Retry{Max: 1, Rule: "no_retry"}},
		{"overloaded with a short hint waits the hint",
			RetryFacts{Reason: ReasonOverloaded, Hint: short, Attempts: 1, Profiles: 2}, Retry{Retry: true, Delay: 3 * time.Second, Max: 2, Rule: "hint_short"}},
		{"a rate limit with a short hint waits it too",
			RetryFacts{Reason: ReasonRateLimit, Hint: short, Retries: 1, Attempts: 2, Profiles: 2}, Retry{Retry: true, Delay: 3 * time.Second, Max: 2, Rule: "hint_short"}},
		{"exactly the longest wait is still waited",
			RetryFacts{Reason: ReasonRateLimit, Hint: Hint{After: MaxRetryWait, Source: SourceRetryAfter}, Attempts: 1, Profiles: 1},
			Retry{Retry: true, Delay: MaxRetryWait, Max: 2, Rule: "hint_short"}},
		{"a long hint is not waited",
			RetryFacts{Reason: ReasonRateLimit, Hint: long, Attempts: 1, Profiles: 1}, Retry{Max: 2, Rule: "hint_too_long"}},
		{"a long hint on overloaded is not waited either",
			RetryFacts{Reason: ReasonOverloaded, Hint: long, Attempts: 1, Profiles: 1}, Retry{Max: 2, Rule: "hint_too_long"}},
		{"retries spent",
			RetryFacts{Reason: ReasonOverloaded, Hint: short, Retries: 2, Attempts: 3, Profiles: 1}, Retry{Max: 2, Rule: "no_retry"}},
		{"overloaded without a hint backs off 2 s",
			RetryFacts{Reason: ReasonOverloaded, Attempts: 1, Profiles: 1}, Retry{Retry: true, Delay: 2 * time.Second, Max: 2, Rule: "overloaded_backoff"}},
		{"then 4 s",
			RetryFacts{Reason: ReasonOverloaded, Retries: 1, Attempts: 2, Profiles: 1}, Retry{Retry: true, Delay: 4 * time.Second, Max: 2, Rule: "overloaded_backoff"}},
		{"a rate limit without a hint rotates instead",
			RetryFacts{Reason: ReasonRateLimit, Attempts: 1, Profiles: 2}, Retry{Max: 2, Rule: "no_retry"}},
		{"auth is never retried on the same key",
			RetryFacts{Reason: ReasonAuth, Hint: short, Attempts: 1, Profiles: 2}, Retry{Rule: "no_retry"}},
		{"a refused connection is not retried as a timeout",
			RetryFacts{Reason: ReasonNetwork, Attempts: 1, Profiles: 1}, Retry{Rule: "no_retry"}},
		{"nor is a page instead of a stream",
			RetryFacts{Reason: ReasonMalformed, Attempts: 1, Profiles: 1}, Retry{Rule: "no_retry"}},
		{"the run's budget is spent",
			RetryFacts{Reason: ReasonTimeout, Attempts: limit, Profiles: 1}, Retry{Max: 1, Rule: "retry_limit"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := DecideRetry(c.f, Config{}); got != c.want {
				t.Fatalf("DecideRetry = %+v, want %+v", got, c.want)
			}
		})
	}
}
