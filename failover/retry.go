package failover

import "time"

// Same-profile retries: a transient failure is tried again on the profile and
// model that just failed before the decision moves on (SPEC §5.2's
// continue_normal without a recovery). These bound it.
const (
	// MaxRetryWait is the longest hint worth waiting for on the same
	// profile; a longer one goes to the ledger, and the decision rotates or
	// falls back at once.
	MaxRetryWait = 10 * time.Second
	// MaxTimeoutRetries: a timeout (a stalled stream cut by the watchdog) is
	// retried once, at once — a second stall says the model is stuck, and
	// waiting longer would only make the user wait.
	MaxTimeoutRetries = 1
	// MaxTransientRetries: an overloaded or rate-limited profile is retried
	// at most twice.
	MaxTransientRetries = 2
	// OverloadedBackoff is the wait before retrying an overloaded profile
	// that gave no hint, doubled for the second retry.
	OverloadedBackoff = 2 * time.Second
)

// RetryFacts are what DecideRetry reads about the attempt that just failed.
type RetryFacts struct {
	Reason Reason
	// Hint is what the response said about when to come back (RetryHint).
	Hint Hint
	// Retries is the number of same-profile retries already made for this
	// profile and model in the request.
	Retries int
	// Attempts and Profiles size the run's budget as in Facts.
	Attempts int
	Profiles int
}

// Retry is DecideRetry's answer: whether to try the same profile again,
// after how long, the most retries the reason allows (pi's maxAttempts),
// and the rule that fired.
type Retry struct {
	Retry bool
	Delay time.Duration
	Max   int
	Rule  string
}

// DecideRetry says whether a failed attempt is retried on the same profile
// and model before Decide moves on. It is pure; the rules are the ordered
// table retryRules (first match wins):
//
//	rule                when                                                 retry  delay
//	retry_limit         the run's attempts are spent (AttemptLimit)          no
//	timeout_once        timeout, not retried yet                             yes    none
//	hint_too_long       overloaded or rate_limit, hint > MaxRetryWait        no
//	                    or > the wait bound (Config.CooldownWait)
//	hint_short          overloaded or rate_limit, a hint, retries left       yes    the hint
//	overloaded_backoff  overloaded without a hint, retries left, the         yes    2 s, 4 s
//	                    backoff within the wait bound
//	no_retry            otherwise (network and malformed among them)         no
//
// A rate limit without a hint is not retried: the key is throttled for an
// unknown time, and another key or model is the better bet.
func DecideRetry(f RetryFacts, cfg Config) Retry {
	most := maxRetries(f.Reason)
	for _, r := range retryRules {
		if r.when(f, cfg) {
			out := Retry{Retry: r.retry, Max: most, Rule: r.name}
			if r.retry {
				out.Delay = r.delay(f)
			}
			return out
		}
	}
	return Retry{Max: most, Rule: "no_retry"}
}

func maxRetries(r Reason) int {
	switch r {
	case ReasonTimeout:
		return MaxTimeoutRetries
	case ReasonOverloaded, ReasonRateLimit:
		return MaxTransientRetries
	}
	return 0
}

type retryRule struct {
	name  string
	when  func(RetryFacts, Config) bool
	retry bool
	delay func(RetryFacts) time.Duration
}

func transient(r Reason) bool { return r == ReasonOverloaded || r == ReasonRateLimit }

var retryRules = []retryRule{
	{"retry_limit", func(f RetryFacts, c Config) bool { return f.Attempts >= AttemptLimit(f.Profiles, c) }, false, nil},
	{"timeout_once", func(f RetryFacts, _ Config) bool {
		return f.Reason == ReasonTimeout && f.Retries < MaxTimeoutRetries
	}, true, func(RetryFacts) time.Duration { return 0 }},
	{"hint_too_long", func(f RetryFacts, c Config) bool {
		return transient(f.Reason) && f.Hint.After > min(MaxRetryWait, c.CooldownWaitLimit())
	}, false, nil},
	{"hint_short", func(f RetryFacts, _ Config) bool {
		return transient(f.Reason) && f.Hint.After > 0 && f.Retries < MaxTransientRetries
	}, true, func(f RetryFacts) time.Duration { return f.Hint.After }},
	{"overloaded_backoff", func(f RetryFacts, c Config) bool {
		return f.Reason == ReasonOverloaded && f.Hint.After == 0 && f.Retries < MaxTransientRetries &&
			OverloadedBackoff<<f.Retries <= c.CooldownWaitLimit()
	}, true, func(f RetryFacts) time.Duration { return OverloadedBackoff << f.Retries }},
}
