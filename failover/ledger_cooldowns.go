package failover

import "time"

// The ordinary cooldown schedule by consecutive error count: 30 s, 1 min,
// then 5 min for every later failure. (seed)
const (
	CooldownFirst  = 30 * time.Second
	CooldownSecond = time.Minute
	CooldownMax    = 5 * time.Minute
)

// The disabled track's defaults (OpenClaw's, configurable under
// auth.cooldowns) and the failure window after which error counters start
// over. (seed)
const (
	DefaultBillingBackoff       = 5 * time.Hour
	DefaultBillingMax           = 24 * time.Hour
	DefaultAuthPermanentBackoff = 10 * time.Minute
	DefaultAuthPermanentMax     = 60 * time.Minute
	DefaultFailureWindow        = 24 * time.Hour
)

// Cooldowns configures the ledger (config auth.cooldowns). A zero field
// takes its default, so the zero value is OpenClaw's policy.
type Cooldowns struct {
	BillingBackoff       time.Duration // base of the billing disable; default 5 h
	BillingMax           time.Duration // cap of the billing disable; default 24 h
	AuthPermanentBackoff time.Duration // base of the auth_permanent disable; default 10 min
	AuthPermanentMax     time.Duration // cap of the auth_permanent disable; default 60 min
	FailureWindow        time.Duration // counters start over after this quiet time; default 24 h
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

func (c Cooldowns) window() time.Duration { return orDefault(c.FailureWindow, DefaultFailureWindow) }

// Ordinary is the ordinary cooldown after the n-th consecutive failure:
// 30 s → 1 min → 5 min (cap). n below 1 counts as 1.
func (c Cooldowns) Ordinary(n int) time.Duration {
	switch {
	case n <= 1:
		return CooldownFirst
	case n == 2:
		return CooldownSecond
	default:
		return CooldownMax
	}
}

// Disabled is the disable after the n-th billing or auth_permanent failure
// in the failure window: base × 2^(n−1), capped. It is zero for reasons that
// are not on the disabled track.
func (c Cooldowns) Disabled(r Reason, n int) time.Duration {
	var base, ceiling time.Duration
	switch r {
	case ReasonBilling:
		base, ceiling = orDefault(c.BillingBackoff, DefaultBillingBackoff), orDefault(c.BillingMax, DefaultBillingMax)
	case ReasonAuthPermanent:
		base, ceiling = orDefault(c.AuthPermanentBackoff, DefaultAuthPermanentBackoff), orDefault(c.AuthPermanentMax, DefaultAuthPermanentMax)
	default:
		return 0
	}
	d := base
	for i := 1; i < n && d < ceiling; i++ {
		d *= 2
	}
	return min(d, ceiling)
}

// DisablesProfile reports whether a reason goes on the disabled track
// (billing, auth_permanent) rather than the ordinary cooldown.
func DisablesProfile(r Reason) bool { return r == ReasonBilling || r == ReasonAuthPermanent }

// ModelScoped reports whether a reason's cooldown is scoped to the model that
// failed, because the reason names the model, not the key: rate_limit,
// timeout and overloaded (another model of the same key may still answer)
// and model_not_found (a mistyped model id must not lock the key's other
// models out). Every other reason cools the whole profile (SPEC §5.3).
func ModelScoped(r Reason) bool {
	switch r {
	case ReasonRateLimit, ReasonTimeout, ReasonOverloaded, ReasonModelNotFound:
		return true
	}
	return false
}

// Ledgered reports whether a failure is written to the shared ledger at all.
// Not format (a bad transcript, not a bad key: recording it would cool the
// profile for every session sharing it), server_error, empty_response, nor a
// timeout before the provider was reached. (seed) Nor context_overflow, for
// format's reason: the session is too long, whatever the key, and the
// context guard's recovery (compaction) must still reach the provider. Nor
// malformed and network (steer's): a base URL that serves a web page or
// cannot be reached says nothing about the key, and a cooldown would only
// hide the configuration error behind "every auth profile is unavailable".
func Ledgered(r Reason, providerReached bool) bool {
	switch r {
	case ReasonFormat, ReasonServerError, ReasonEmptyResponse, ReasonContextOverflow,
		ReasonMalformed, ReasonNetwork:
		return false
	case ReasonTimeout:
		return providerReached
	}
	return true
}
