package failover

import (
	"fmt"
	"testing"
	"time"
)

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func at(d time.Duration) time.Time { return t0.Add(d) }

func fail(d time.Duration, r Reason, model string) func(ProfileState) ProfileState {
	return func(s ProfileState) ProfileState {
		return s.RecordFailure(Failure{At: at(d), Reason: r, Model: model, ProviderReached: true}, Cooldowns{})
	}
}

func counts(pairs ...any) ReasonCounts {
	var c ReasonCounts
	for i := 0; i < len(pairs); i += 2 {
		c[pairs[i].(Reason)] = pairs[i+1].(int)
	}
	return c
}

func TestRecordFailure(t *testing.T) {
	const sec = time.Second
	cases := []struct {
		name  string
		start ProfileState
		ops   []func(ProfileState) ProfileState
		want  ProfileState
	}{
		{"a rate limit cools the failing model for 30 s",
			ProfileState{}, steps(fail(0, ReasonRateLimit, "m1")),
			ProfileState{Failures: 1, LastFailureAt: at(0), LastFailureReason: ReasonRateLimit, ErrorCount: 1,
				ReasonCounts: counts(ReasonRateLimit, 1), CooldownUntil: at(30 * sec), CooldownModel: "m1", CooldownReason: ReasonRateLimit}},
		{"an auth failure cools the whole profile",
			ProfileState{}, steps(fail(0, ReasonAuth, "m1")),
			ProfileState{Failures: 1, LastFailureAt: at(0), LastFailureReason: ReasonAuth, ErrorCount: 1,
				ReasonCounts: counts(ReasonAuth, 1), CooldownUntil: at(30 * sec), CooldownReason: ReasonAuth}},
		{"failures inside the window never extend it",
			ProfileState{}, steps(fail(0, ReasonRateLimit, "m1"), fail(10*sec, ReasonRateLimit, "m1"), fail(29*sec, ReasonRateLimit, "m1")),
			ProfileState{Failures: 3, LastFailureAt: at(29 * sec), LastFailureReason: ReasonRateLimit, ErrorCount: 3,
				ReasonCounts: counts(ReasonRateLimit, 3), CooldownUntil: at(30 * sec), CooldownModel: "m1", CooldownReason: ReasonRateLimit}},
		{"another model failing inside the window widens it to the profile",
			ProfileState{}, steps(fail(0, ReasonRateLimit, "m1"), fail(5*sec, ReasonRateLimit, "m2")),
			ProfileState{Failures: 2, LastFailureAt: at(5 * sec), LastFailureReason: ReasonRateLimit, ErrorCount: 2,
				ReasonCounts: counts(ReasonRateLimit, 2), CooldownUntil: at(30 * sec), CooldownReason: ReasonRateLimit}},
		{"a profile-level failure widens a model window without extending it",
			ProfileState{}, steps(fail(0, ReasonOverloaded, "m1"), fail(5*sec, ReasonAuth, "m1")),
			ProfileState{Failures: 2, LastFailureAt: at(5 * sec), LastFailureReason: ReasonAuth, ErrorCount: 2,
				ReasonCounts: counts(ReasonOverloaded, 1, ReasonAuth, 1), CooldownUntil: at(30 * sec), CooldownReason: ReasonOverloaded}},
		{"after the window expired the count starts over",
			ProfileState{}, steps(fail(0, ReasonRateLimit, "m1"), fail(10*sec, ReasonRateLimit, "m1"), fail(40*sec, ReasonRateLimit, "m1")),
			ProfileState{Failures: 3, LastFailureAt: at(40 * sec), LastFailureReason: ReasonRateLimit, ErrorCount: 1,
				ReasonCounts: counts(ReasonRateLimit, 1), CooldownUntil: at(70 * sec), CooldownModel: "m1", CooldownReason: ReasonRateLimit}},
		{"counts held over from a disable climb the ordinary schedule",
			ProfileState{}, steps(fail(0, ReasonBilling, "m1"), fail(time.Minute, ReasonRateLimit, "m1"), fail(2*time.Minute, ReasonOverloaded, "m1")),
			ProfileState{Failures: 3, LastFailureAt: at(2 * time.Minute), LastFailureReason: ReasonOverloaded, ErrorCount: 3,
				ReasonCounts: counts(ReasonBilling, 1, ReasonRateLimit, 1, ReasonOverloaded, 1), CooldownUntil: at(2*time.Minute + 5*time.Minute), CooldownModel: "m1", CooldownReason: ReasonOverloaded,
				DisabledUntil: at(5 * time.Hour), DisabledReason: ReasonBilling}},
		{"billing disables the profile for 5 h",
			ProfileState{}, steps(fail(0, ReasonBilling, "m1")),
			ProfileState{Failures: 1, LastFailureAt: at(0), LastFailureReason: ReasonBilling, ErrorCount: 1,
				ReasonCounts: counts(ReasonBilling, 1), DisabledUntil: at(5 * time.Hour), DisabledReason: ReasonBilling}},
		{"a second billing failure inside the disable does not extend it",
			ProfileState{}, steps(fail(0, ReasonBilling, "m1"), fail(time.Hour, ReasonBilling, "m1")),
			ProfileState{Failures: 2, LastFailureAt: at(time.Hour), LastFailureReason: ReasonBilling, ErrorCount: 2,
				ReasonCounts: counts(ReasonBilling, 2), DisabledUntil: at(5 * time.Hour), DisabledReason: ReasonBilling}},
		{"auth_permanent backs off exponentially when counts survive",
			ProfileState{ErrorCount: 2, ReasonCounts: counts(ReasonAuthPermanent, 2), LastFailureAt: at(-time.Hour), LastFailureReason: ReasonAuthPermanent, Failures: 2},
			steps(fail(0, ReasonAuthPermanent, "m1")),
			ProfileState{Failures: 3, LastFailureAt: at(0), LastFailureReason: ReasonAuthPermanent, ErrorCount: 3,
				ReasonCounts: counts(ReasonAuthPermanent, 3), DisabledUntil: at(40 * time.Minute), DisabledReason: ReasonAuthPermanent}},
		{"a billing failure widens an active model cooldown",
			ProfileState{}, steps(fail(0, ReasonRateLimit, "m1"), fail(sec, ReasonBilling, "m1")),
			ProfileState{Failures: 2, LastFailureAt: at(sec), LastFailureReason: ReasonBilling, ErrorCount: 2,
				ReasonCounts: counts(ReasonRateLimit, 1, ReasonBilling, 1), CooldownUntil: at(30 * sec), CooldownReason: ReasonRateLimit,
				DisabledUntil: at(sec + 5*time.Hour), DisabledReason: ReasonBilling}},
		{"the failure window resets counters",
			ProfileState{ErrorCount: 2, ReasonCounts: counts(ReasonBilling, 2), LastFailureAt: at(-25 * time.Hour), LastFailureReason: ReasonBilling, Failures: 2},
			steps(fail(0, ReasonBilling, "m1")),
			ProfileState{Failures: 3, LastFailureAt: at(0), LastFailureReason: ReasonBilling, ErrorCount: 1,
				ReasonCounts: counts(ReasonBilling, 1), DisabledUntil: at(5 * time.Hour), DisabledReason: ReasonBilling}},
		{"a missing model cools that model, not the key",
			ProfileState{}, steps(fail(0, ReasonModelNotFound, "gpt-4.1-typo")),
			ProfileState{Failures: 1, LastFailureAt: at(0), LastFailureReason: ReasonModelNotFound, ErrorCount: 1,
				ReasonCounts: counts(ReasonModelNotFound, 1), CooldownUntil: at(30 * sec), CooldownModel: "gpt-4.1-typo", CooldownReason: ReasonModelNotFound}},
		{"a page instead of a stream and a refused connection are not written",
			ProfileState{}, steps(fail(0, ReasonMalformed, "m1"), fail(0, ReasonNetwork, "m1")),
			ProfileState{}},
		{"format is not written to the ledger",
			ProfileState{}, steps(fail(0, ReasonFormat, "m1"), fail(0, ReasonServerError, "m1"), fail(0, ReasonEmptyResponse, "m1")),
			ProfileState{}},
		{"a timeout before the provider was reached is not written",
			ProfileState{}, steps(func(s ProfileState) ProfileState {
				return s.RecordFailure(Failure{At: t0, Reason: ReasonTimeout, Model: "m1"}, Cooldowns{})
			}),
			ProfileState{}},
		{"a timeout after the provider was reached cools the model",
			ProfileState{}, steps(fail(0, ReasonTimeout, "m1")),
			ProfileState{Failures: 1, LastFailureAt: at(0), LastFailureReason: ReasonTimeout, ErrorCount: 1,
				ReasonCounts: counts(ReasonTimeout, 1), CooldownUntil: at(30 * sec), CooldownModel: "m1", CooldownReason: ReasonTimeout}},
		{"success counts and resets counters but keeps the window",
			ProfileState{}, steps(fail(0, ReasonRateLimit, "m1"), func(s ProfileState) ProfileState { return s.RecordSuccess(at(sec)) }),
			ProfileState{Failures: 1, Successes: 1, LastFailureAt: at(0), LastFailureReason: ReasonRateLimit, LastSuccessAt: at(sec),
				CooldownUntil: at(30 * sec), CooldownModel: "m1", CooldownReason: ReasonRateLimit}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.start
			for _, op := range c.ops {
				got = op(got)
			}
			if got != c.want {
				t.Errorf("state\n got %+v\nwant %+v", got, c.want)
			}
		})
	}
}

func steps(ops ...func(ProfileState) ProfileState) []func(ProfileState) ProfileState { return ops }

func TestAvailable(t *testing.T) {
	cooled := fail(0, ReasonRateLimit, "m1")(ProfileState{})
	wide := fail(0, ReasonAuth, "m1")(ProfileState{})
	disabled := fail(0, ReasonBilling, "m1")(cooled)
	missing := fail(0, ReasonModelNotFound, "typo")(ProfileState{})
	cases := []struct {
		name      string
		s         ProfileState
		now       time.Duration
		model     string
		wantOK    bool
		wantUntil time.Time
		wantWhy   Eligibility
	}{
		{"fresh", ProfileState{}, 0, "m1", true, time.Time{}, EligibleOK},
		{"model cooled", cooled, time.Second, "m1", false, at(30 * time.Second), EligibleInCooldown},
		{"other model free", cooled, time.Second, "m2", true, time.Time{}, EligibleOK},
		{"window over at its end", cooled, 30 * time.Second, "m1", true, time.Time{}, EligibleOK},
		{"profile cooled for every model", wide, time.Second, "m2", false, at(30 * time.Second), EligibleInCooldown},
		{"disabled wins over cooldown", disabled, time.Second, "m1", false, at(5 * time.Hour), EligibleDisabled},
		{"disabled for every model", disabled, time.Minute, "m2", false, at(5 * time.Hour), EligibleDisabled},
		{"a missing model is cooled", missing, time.Second, "typo", false, at(30 * time.Second), EligibleInCooldown},
		{"the key's other models stay usable after a missing model", missing, time.Second, "m1", true, time.Time{}, EligibleOK},
	}
	for _, c := range cases {
		ok, until, why := c.s.Available(at(c.now), c.model)
		if ok != c.wantOK || !until.Equal(c.wantUntil) || why != c.wantWhy {
			t.Errorf("%s: Available = %v, %v, %s; want %v, %v, %s", c.name, ok, until, why, c.wantOK, c.wantUntil, c.wantWhy)
		}
	}
}

func TestClearExpired(t *testing.T) {
	cooled := fail(0, ReasonRateLimit, "m1")(ProfileState{ProfileID: "p"})
	cases := []struct {
		name string
		s    ProfileState
		now  time.Duration
		want ProfileState
	}{
		{"active window stays", cooled, time.Second, cooled},
		{"expired window goes with the counters", cooled, time.Minute,
			ProfileState{ProfileID: "p", Failures: 1, LastFailureAt: t0, LastFailureReason: ReasonRateLimit}},
		{"nothing to clear", ProfileState{ProfileID: "p", ErrorCount: 1}, time.Hour, ProfileState{ProfileID: "p", ErrorCount: 1}},
	}
	for _, c := range cases {
		if got := c.s.ClearExpired(at(c.now)); got != c.want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
	}
}

// ExampleProfileState follows one key through the ledger: a rate limit on
// one model, another model failing inside the window (the cooldown widens
// but does not grow), then a clean start once the window has passed.
func ExampleProfileState() {
	var c Cooldowns
	s := ProfileState{ProfileID: "openai:main"}
	show := func(now time.Time) {
		ok, until, why := s.Available(now, "gpt-4.1")
		fmt.Printf("errors=%d scope=%q gpt-4.1: %s", s.ErrorCount, s.CooldownModel, why)
		if !ok {
			fmt.Printf(" until +%v", until.Sub(t0))
		}
		fmt.Println()
	}
	s = s.RecordFailure(Failure{At: t0, Reason: ReasonRateLimit, Model: "gpt-4o", ProviderReached: true}, c)
	show(t0)
	s = s.RecordFailure(Failure{At: t0.Add(10 * time.Second), Reason: ReasonRateLimit, Model: "gpt-4.1", ProviderReached: true}, c)
	show(t0.Add(10 * time.Second))
	s = s.RecordFailure(Failure{At: t0.Add(time.Minute), Reason: ReasonOverloaded, Model: "gpt-4.1", ProviderReached: true}, c)
	show(t0.Add(time.Minute))
	// Output:
	// errors=1 scope="gpt-4o" gpt-4.1: ok
	// errors=2 scope="" gpt-4.1: in_cooldown until +30s
	// errors=1 scope="gpt-4.1" gpt-4.1: in_cooldown until +1m30s
}
