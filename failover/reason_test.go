package failover

import "testing"

func TestReasonCodesRoundTrip(t *testing.T) {
	if n := len(Reasons()); n != 18 {
		t.Fatalf("%d reasons, want the closed set of 18", n)
	}
	seen := map[string]bool{}
	for _, r := range Reasons() {
		code := r.String()
		if seen[code] {
			t.Errorf("code %q used twice", code)
		}
		seen[code] = true
		if back, ok := ParseReason(code); !ok || back != r {
			t.Errorf("ParseReason(%q) = %v, %v", code, back, ok)
		}
	}
	if _, ok := ParseReason("nope"); ok {
		t.Error("ParseReason accepted an unknown code")
	}
}
