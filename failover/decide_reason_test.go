package failover

import "testing"

func TestEveryReasonHasAPolicyAndAStrength(t *testing.T) {
	if len(reasonPolicies) != len(Reasons()) {
		t.Errorf("%d policies for %d reasons", len(reasonPolicies), len(Reasons()))
	}
	seen := map[Reason]bool{}
	for _, r := range reasonStrength {
		if seen[r] {
			t.Errorf("%s ranked twice", r)
		}
		seen[r] = true
	}
	for _, r := range Reasons() {
		if !seen[r] {
			t.Errorf("%s has no strength", r)
		}
	}
}

func TestMergeReason(t *testing.T) {
	cases := []struct {
		old, latest, want Reason
	}{
		{ReasonUnknown, ReasonTimeout, ReasonTimeout},
		{ReasonRateLimit, ReasonTimeout, ReasonRateLimit},
		{ReasonTimeout, ReasonRateLimit, ReasonRateLimit},
		{ReasonBilling, ReasonAuth, ReasonBilling},
		{ReasonAuth, ReasonBilling, ReasonBilling},
		{ReasonServerError, ReasonNoErrorDetails, ReasonServerError},
		{ReasonNoErrorDetails, ReasonServerError, ReasonServerError},
		{ReasonFormat, ReasonTimeout, ReasonFormat},
		{ReasonEmptyResponse, ReasonOverloaded, ReasonOverloaded},
		{ReasonTimeout, ReasonTimeout, ReasonTimeout},
		{ReasonTimeout, ReasonUnknown, ReasonTimeout},
	}
	for _, c := range cases {
		if got := MergeReason(c.old, c.latest); got != c.want {
			t.Errorf("MergeReason(%s, %s) = %s, want %s", c.old, c.latest, got, c.want)
		}
	}
}

func TestMostCredible(t *testing.T) {
	cases := []struct {
		name    string
		reasons []Reason
		want    int
	}{
		{"none", nil, -1},
		{"one", []Reason{ReasonTimeout}, 0},
		{"strongest wins", []Reason{ReasonTimeout, ReasonBilling, ReasonServerError}, 1},
		{"latest of equals", []Reason{ReasonRateLimit, ReasonTimeout, ReasonRateLimit}, 2},
	}
	for _, c := range cases {
		if got := MostCredible(c.reasons); got != c.want {
			t.Errorf("%s: MostCredible = %d, want %d", c.name, got, c.want)
		}
	}
}
