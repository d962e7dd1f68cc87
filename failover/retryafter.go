package failover

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// MaxRetryHint caps how long a provider's hint can cool a profile down: a
// longer value is more likely a daily quota (which the disabled track and
// the user handle) or a misread header than a wait worth keeping a key idle
// for.
const MaxRetryHint = time.Hour

// The sources of a cooldown's length, as the ledger records them
// (ProfileState.CooldownSource): the schedule of SPEC §5.3, or the header
// whose hint made the window longer. A header source is the header's name in
// lower case.
const (
	SourceSchedule        = "schedule"
	SourceRetryAfter      = "retry-after"
	SourceRetryAfterMS    = "retry-after-ms"
	SourceResetRequests   = "x-ratelimit-reset-requests"
	SourceResetTokens     = "x-ratelimit-reset-tokens"
	SourceAnthropicReqs   = "anthropic-ratelimit-requests-reset"
	SourceAnthropicTokens = "anthropic-ratelimit-tokens-reset"
	SourceAnthropicInput  = "anthropic-ratelimit-input-tokens-reset"
	SourceAnthropicOutput = "anthropic-ratelimit-output-tokens-reset"
)

// Hint is what a failed response said about when to come back: how long
// from the failure, and the header that said so. The zero Hint says
// nothing.
type Hint struct {
	After  time.Duration
	Source string
}

// hintStatuses are the statuses whose headers speak of coming back later:
// rate limited, unavailable, overloaded (Anthropic's 529).
var hintStatuses = map[int]bool{http.StatusTooManyRequests: true, http.StatusServiceUnavailable: true, 529: true}

// resetBucket is one rate-limit bucket a 429 may name: the header saying
// when it refills, the one saying what is left of it, and how the reset is
// written.
type resetBucket struct {
	reset, remaining string
	parse            func(value string, base time.Time) (time.Duration, bool)
}

// resetBuckets are OpenAI's (also Groq's, Azure's, OpenRouter's) and
// Anthropic's buckets.
var resetBuckets = []resetBucket{
	{SourceResetRequests, "x-ratelimit-remaining-requests", parseResetDuration},
	{SourceResetTokens, "x-ratelimit-remaining-tokens", parseResetDuration},
	{SourceAnthropicReqs, "anthropic-ratelimit-requests-remaining", parseResetTime},
	{SourceAnthropicTokens, "anthropic-ratelimit-tokens-remaining", parseResetTime},
	{SourceAnthropicInput, "anthropic-ratelimit-input-tokens-remaining", parseResetTime},
	{SourceAnthropicOutput, "anthropic-ratelimit-output-tokens-remaining", parseResetTime},
}

// RetryHint reads a failed response's hint, capped at MaxRetryHint. Only a
// 429, 503 or 529 has one, and its headers are read in this order (the SDKs'
// own preference for the first two):
//
//	retry-after-ms                  milliseconds
//	Retry-After                     seconds, or an HTTP date
//	x-ratelimit-reset-{requests,tokens}     (429 only) durations: "6m0s", "1s", "20ms"
//	anthropic-ratelimit-*-reset             (429 only) RFC 3339 times
//
// Of the reset headers, the buckets said to be empty (remaining 0) decide,
// the latest reset among them; when none says so, the latest of all. Dates
// are read against the response's Date header when it has one (the
// server's clock, so a skewed local clock does not matter), else against
// now. A hint of zero or less (a reset already past, Azure's "0") is none.
func RetryHint(status int, header map[string][]string, now time.Time) (Hint, bool) {
	if !hintStatuses[status] || len(header) == 0 {
		return Hint{}, false
	}
	h := http.Header(header)
	base := now
	if d, err := http.ParseTime(h.Get("Date")); err == nil {
		base = d
	}
	if d, ok := parseMillis(h.Get(SourceRetryAfterMS)); ok {
		return capped(d, SourceRetryAfterMS)
	}
	if d, ok := ParseRetryAfter(h.Get(SourceRetryAfter), base); ok {
		return capped(d, SourceRetryAfter)
	}
	if status != http.StatusTooManyRequests {
		return Hint{}, false
	}
	var empty, latest Hint
	for _, b := range resetBuckets {
		d, ok := b.parse(h.Get(b.reset), base)
		if !ok {
			continue
		}
		if d > latest.After {
			latest = Hint{After: d, Source: b.reset}
		}
		if strings.TrimSpace(h.Get(b.remaining)) == "0" && d > empty.After {
			empty = Hint{After: d, Source: b.reset}
		}
	}
	if empty.After > 0 {
		return capped(empty.After, empty.Source)
	}
	return capped(latest.After, latest.Source)
}

func capped(d time.Duration, source string) (Hint, bool) {
	if d <= 0 {
		return Hint{}, false
	}
	return Hint{After: min(d, MaxRetryHint), Source: source}, true
}

// ParseRetryAfter reads a Retry-After value (RFC 9110 §10.2.3): a number of
// seconds (a fraction is accepted, as some proxies send one), or an HTTP
// date, read against base. It reports false for anything else and for a
// wait of zero or less.
func ParseRetryAfter(value string, base time.Time) (time.Duration, bool) {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(value, 64); err == nil {
		return positive(s * float64(time.Second))
	}
	t, err := http.ParseTime(value)
	if err != nil {
		return 0, false
	}
	return positive(float64(t.Sub(base)))
}

// ParseResetDuration reads an x-ratelimit-reset-* value: a Go-style
// duration as OpenAI and Groq send it ("6m0s", "1s", "20ms", "2m59.56s"),
// or a bare number of seconds, as Azure sends it.
func ParseResetDuration(value string) (time.Duration, bool) {
	value = strings.TrimSpace(value)
	if s, err := strconv.ParseFloat(value, 64); err == nil {
		return positive(s * float64(time.Second))
	}
	d, err := time.ParseDuration(value)
	if err != nil {
		return 0, false
	}
	return positive(float64(d))
}

func parseResetDuration(value string, _ time.Time) (time.Duration, bool) {
	return ParseResetDuration(value)
}

// parseResetTime reads an anthropic-ratelimit-*-reset value, an RFC 3339
// time, as the wait from base.
func parseResetTime(value string, base time.Time) (time.Duration, bool) {
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(value))
	if err != nil {
		return 0, false
	}
	return positive(float64(t.Sub(base)))
}

// parseMillis reads retry-after-ms.
func parseMillis(value string) (time.Duration, bool) {
	ms, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
	if err != nil {
		return 0, false
	}
	return positive(ms * float64(time.Millisecond))
}

// positive turns nanoseconds into a duration when it is a wait at all (not
// NaN, zero or less); one beyond what a Duration holds is the longest.
func positive(ns float64) (time.Duration, bool) {
	switch {
	case !(ns > 0):
		return 0, false
	case ns >= math.MaxInt64:
		return math.MaxInt64, true
	}
	return time.Duration(ns), true
}
