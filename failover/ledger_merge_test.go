package failover

import (
	"testing"
	"time"
)

func TestMerge(t *testing.T) {
	const sec = time.Second
	now := at(sec)
	base := ProfileState{ProfileID: "p", Failures: 1, LastFailureAt: at(-time.Hour), LastFailureReason: ReasonAuth}
	cases := []struct {
		name string
		a, b ProfileState
		want ProfileState
	}{
		{"one side changed: that side",
			base, fail(0, ReasonRateLimit, "m1")(base),
			fail(0, ReasonRateLimit, "m1")(base)},
		{"both failed on the same model: the later window, counts not doubled",
			fail(0, ReasonRateLimit, "m1")(base), fail(-10*sec, ReasonRateLimit, "m1")(base),
			ProfileState{ProfileID: "p", Failures: 2, LastFailureAt: at(0), LastFailureReason: ReasonRateLimit, ErrorCount: 1,
				ReasonCounts: counts(ReasonRateLimit, 1), CooldownUntil: at(30 * sec), CooldownModel: "m1", CooldownReason: ReasonRateLimit}},
		{"different models widen to the profile",
			fail(0, ReasonRateLimit, "m1")(base), fail(0, ReasonRateLimit, "m2")(base),
			ProfileState{ProfileID: "p", Failures: 2, LastFailureAt: at(0), LastFailureReason: ReasonRateLimit, ErrorCount: 1,
				ReasonCounts: counts(ReasonRateLimit, 1), CooldownUntil: at(30 * sec), CooldownReason: ReasonRateLimit}},
		{"a profile-wide side widens",
			fail(0, ReasonRateLimit, "m1")(base), fail(0, ReasonAuth, "m1")(base),
			ProfileState{ProfileID: "p", Failures: 2, LastFailureAt: at(0), LastFailureReason: ReasonAuth, ErrorCount: 1,
				ReasonCounts: counts(ReasonRateLimit, 1, ReasonAuth, 1), CooldownUntil: at(30 * sec), CooldownReason: ReasonAuth}},
		{"an expired window does not widen a live one",
			fail(-time.Minute, ReasonRateLimit, "m1")(ProfileState{ProfileID: "p"}), fail(0, ReasonRateLimit, "m2")(ProfileState{ProfileID: "p"}),
			ProfileState{ProfileID: "p", Failures: 1, LastFailureAt: at(0), LastFailureReason: ReasonRateLimit, ErrorCount: 1,
				ReasonCounts: counts(ReasonRateLimit, 1), CooldownUntil: at(30 * sec), CooldownModel: "m2", CooldownReason: ReasonRateLimit}},
		{"the longer disable wins",
			fail(0, ReasonAuthPermanent, "m1")(base), fail(0, ReasonBilling, "m1")(base),
			ProfileState{ProfileID: "p", Failures: 2, LastFailureAt: at(0), LastFailureReason: ReasonBilling, ErrorCount: 1,
				ReasonCounts: counts(ReasonAuthPermanent, 1, ReasonBilling, 1), DisabledUntil: at(5 * time.Hour), DisabledReason: ReasonBilling}},
		{"success and failure both count",
			base.RecordSuccess(at(0)), fail(0, ReasonRateLimit, "m1")(base),
			ProfileState{ProfileID: "p", Failures: 2, Successes: 1, LastSuccessAt: at(0), LastFailureAt: at(0), LastFailureReason: ReasonRateLimit,
				ErrorCount: 1, ReasonCounts: counts(ReasonRateLimit, 1), CooldownUntil: at(30 * sec), CooldownModel: "m1", CooldownReason: ReasonRateLimit}},
		{"a missing id is taken from the other side",
			ProfileState{}, ProfileState{ProfileID: "p"}, ProfileState{ProfileID: "p"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Merge(c.a, c.b, now); got != c.want {
				t.Errorf("Merge(a, b)\n got %+v\nwant %+v", got, c.want)
			}
			if got := Merge(c.b, c.a, now); got != c.want {
				t.Errorf("Merge(b, a)\n got %+v\nwant %+v", got, c.want)
			}
			if got := Merge(c.want, c.want, now); got != c.want {
				t.Errorf("Merge is not idempotent:\n got %+v", got)
			}
		})
	}
}
