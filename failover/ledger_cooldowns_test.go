package failover

import (
	"fmt"
	"testing"
	"time"
)

func TestOrdinarySchedule(t *testing.T) {
	want := map[int]time.Duration{0: 30 * time.Second, 1: 30 * time.Second, 2: time.Minute, 3: 5 * time.Minute, 9: 5 * time.Minute}
	for n, d := range want {
		if got := (Cooldowns{}).Ordinary(n); got != d {
			t.Errorf("Ordinary(%d) = %v, want %v", n, got, d)
		}
	}
}

func TestDisabledSchedule(t *testing.T) {
	custom := Cooldowns{BillingBackoff: time.Hour, BillingMax: 3 * time.Hour}
	cases := []struct {
		c    Cooldowns
		r    Reason
		n    int
		want time.Duration
	}{
		{Cooldowns{}, ReasonBilling, 1, 5 * time.Hour},
		{Cooldowns{}, ReasonBilling, 2, 10 * time.Hour},
		{Cooldowns{}, ReasonBilling, 3, 20 * time.Hour},
		{Cooldowns{}, ReasonBilling, 4, 24 * time.Hour},
		{Cooldowns{}, ReasonBilling, 60, 24 * time.Hour},
		{Cooldowns{}, ReasonAuthPermanent, 1, 10 * time.Minute},
		{Cooldowns{}, ReasonAuthPermanent, 2, 20 * time.Minute},
		{Cooldowns{}, ReasonAuthPermanent, 3, 40 * time.Minute},
		{Cooldowns{}, ReasonAuthPermanent, 4, 60 * time.Minute},
		{Cooldowns{}, ReasonRateLimit, 3, 0},
		{custom, ReasonBilling, 1, time.Hour},
		{custom, ReasonBilling, 2, 2 * time.Hour},
		{custom, ReasonBilling, 3, 3 * time.Hour},
		{custom, ReasonAuthPermanent, 1, 10 * time.Minute},
	}
	for _, c := range cases {
		if got := c.c.Disabled(c.r, c.n); got != c.want {
			t.Errorf("%+v.Disabled(%s, %d) = %v, want %v", c.c, c.r, c.n, got, c.want)
		}
	}
}

func TestLedgered(t *testing.T) {
	cases := []struct {
		r       Reason
		reached bool
		want    bool
	}{
		{ReasonFormat, true, false},
		{ReasonServerError, true, false},
		{ReasonEmptyResponse, true, false},
		{ReasonTimeout, false, false},
		{ReasonTimeout, true, true},
		{ReasonRateLimit, false, true},
		{ReasonAuth, true, true},
		{ReasonBilling, true, true},
		{ReasonUnknown, true, true},
		{ReasonMalformed, true, false},
		{ReasonNetwork, false, false},
		{ReasonNetwork, true, false},
		{ReasonModelNotFound, true, true},
	}
	for _, c := range cases {
		if got := Ledgered(c.r, c.reached); got != c.want {
			t.Errorf("Ledgered(%s, reached=%v) = %v, want %v", c.r, c.reached, got, c.want)
		}
	}
}

// modelScoped are the reasons SPEC §5.3 scopes to the failing model.
var modelScoped = map[Reason]bool{ReasonRateLimit: true, ReasonTimeout: true, ReasonOverloaded: true, ReasonModelNotFound: true}

func TestScopes(t *testing.T) {
	for _, r := range Reasons() {
		scoped := modelScoped[r]
		if ModelScoped(r) != scoped {
			t.Errorf("ModelScoped(%s) = %v", r, !scoped)
		}
		disables := r == ReasonBilling || r == ReasonAuthPermanent
		if DisablesProfile(r) != disables {
			t.Errorf("DisablesProfile(%s) = %v", r, !disables)
		}
	}
}

// ExampleCooldowns shows both tracks' schedules with the default policy.
func ExampleCooldowns() {
	var c Cooldowns
	for n := 1; n <= 4; n++ {
		fmt.Printf("failure %d: cooldown %v, billing %v, auth_permanent %v\n",
			n, c.Ordinary(n), c.Disabled(ReasonBilling, n), c.Disabled(ReasonAuthPermanent, n))
	}
	// Output:
	// failure 1: cooldown 30s, billing 5h0m0s, auth_permanent 10m0s
	// failure 2: cooldown 1m0s, billing 10h0m0s, auth_permanent 20m0s
	// failure 3: cooldown 5m0s, billing 20h0m0s, auth_permanent 40m0s
	// failure 4: cooldown 5m0s, billing 24h0m0s, auth_permanent 1h0m0s
}
