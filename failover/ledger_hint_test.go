package failover

import (
	"testing"
	"time"
)

// failHint is a ledgered failure that carried a hint.
func failHint(d time.Duration, r Reason, model string, h Hint) func(ProfileState) ProfileState {
	return func(s ProfileState) ProfileState {
		return s.RecordFailure(Failure{At: at(d), Reason: r, Model: model, ProviderReached: true, Hint: h}, Cooldowns{})
	}
}

func TestRecordFailureHints(t *testing.T) {
	const sec = time.Second
	retry120 := Hint{After: 120 * sec, Source: SourceRetryAfter}
	cases := []struct {
		name       string
		ops        []func(ProfileState) ProfileState
		wantUntil  time.Time
		wantModel  string
		wantSource string
	}{
		{"a hint longer than the schedule sets the window",
			steps(failHint(0, ReasonRateLimit, "m1", retry120)), at(120 * sec), "m1", SourceRetryAfter},
		{"the schedule is the floor",
			steps(failHint(0, ReasonOverloaded, "m1", Hint{After: 2 * sec, Source: SourceRetryAfter})), at(30 * sec), "m1", ""},
		{"a hint is capped",
			steps(failHint(0, ReasonRateLimit, "m1", Hint{After: 24 * time.Hour, Source: SourceResetTokens})), at(MaxRetryHint), "m1", SourceResetTokens},
		{"a later hint inside the window extends it to the hint",
			steps(fail(0, ReasonRateLimit, "m1"), failHint(10*sec, ReasonRateLimit, "m1", retry120)), at(130 * sec), "m1", SourceRetryAfter},
		{"a shorter hint inside the window changes nothing",
			steps(failHint(0, ReasonRateLimit, "m1", retry120), failHint(10*sec, ReasonRateLimit, "m1", Hint{After: 60 * sec, Source: SourceRetryAfterMS})),
			at(120 * sec), "m1", SourceRetryAfter},
		{"a hint on another model widens and extends",
			steps(fail(0, ReasonRateLimit, "m1"), failHint(sec, ReasonRateLimit, "m2", retry120)), at(121 * sec), "", SourceRetryAfter},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var s ProfileState
			for _, op := range c.ops {
				s = op(s)
			}
			if !s.CooldownUntil.Equal(c.wantUntil) || s.CooldownModel != c.wantModel || s.CooldownSource != c.wantSource {
				t.Fatalf("cooldown until +%v model %q source %q; want +%v %q %q",
					s.CooldownUntil.Sub(t0), s.CooldownModel, s.CooldownSource, c.wantUntil.Sub(t0), c.wantModel, c.wantSource)
			}
		})
	}
}

func TestRecordFailureHintLeavesTheDisabledTrack(t *testing.T) {
	s := failHint(0, ReasonBilling, "m1", Hint{After: 10 * time.Minute, Source: SourceRetryAfter})(ProfileState{})
	if !s.DisabledUntil.Equal(at(5*time.Hour)) || s.CooldownSource != "" || !s.CooldownUntil.IsZero() {
		t.Fatalf("billing with a hint: %+v", s)
	}
}

func TestUntilSource(t *testing.T) {
	hinted := failHint(0, ReasonRateLimit, "m1", Hint{After: 2 * time.Minute, Source: SourceRetryAfter})(ProfileState{})
	cases := []struct {
		name string
		s    ProfileState
		now  time.Duration
		want string
	}{
		{"available", ProfileState{}, 0, ""},
		{"scheduled cooldown", fail(0, ReasonRateLimit, "m1")(ProfileState{}), time.Second, SourceSchedule},
		{"hinted cooldown", hinted, time.Second, SourceRetryAfter},
		{"hinted cooldown over", hinted, 2 * time.Minute, ""},
		{"disabled", fail(0, ReasonBilling, "m1")(hinted), time.Second, SourceSchedule},
	}
	for _, c := range cases {
		if got := c.s.UntilSource(at(c.now)); got != c.want {
			t.Errorf("%s: UntilSource = %q, want %q", c.name, got, c.want)
		}
	}
	if cleared := hinted.ClearExpired(at(3 * time.Minute)); cleared.CooldownSource != "" {
		t.Errorf("an expired hinted window keeps its source: %+v", cleared)
	}
}

func TestMergeKeepsTheSourceWithItsWindow(t *testing.T) {
	now := at(time.Second)
	base := ProfileState{ProfileID: "p"}
	hinted := failHint(0, ReasonRateLimit, "m1", Hint{After: 2 * time.Minute, Source: SourceRetryAfter})(base)
	scheduled := fail(0, ReasonRateLimit, "m1")(base)
	otherHint := failHint(0, ReasonRateLimit, "m1", Hint{After: 2 * time.Minute, Source: SourceResetTokens})(base)
	cases := []struct {
		name       string
		a, b       ProfileState
		wantUntil  time.Time
		wantSource string
	}{
		{"the hinted, longer window wins with its source", hinted, scheduled, at(2 * time.Minute), SourceRetryAfter},
		{"the same window from two headers: one answer either way", hinted, otherHint, at(2 * time.Minute), SourceResetTokens},
		{"a failure on one side is not lost", base, hinted, at(2 * time.Minute), SourceRetryAfter},
	}
	for _, c := range cases {
		for _, m := range []ProfileState{Merge(c.a, c.b, now), Merge(c.b, c.a, now)} {
			if !m.CooldownUntil.Equal(c.wantUntil) || m.CooldownSource != c.wantSource || m.Failures != 1 {
				t.Errorf("%s: merged until +%v source %q failures %d", c.name, m.CooldownUntil.Sub(t0), m.CooldownSource, m.Failures)
			}
		}
	}
}
