package failover

import (
	"testing"
	"time"
)

func TestProfileStatus(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	soon, later, past := now.Add(30*time.Second), now.Add(5*time.Hour), now.Add(-time.Second)
	cases := []struct {
		name  string
		state ProfileState
		want  ProfileStatus
	}{
		{"never failed", ProfileState{}, ProfileStatus{State: StateAvailable}},
		{"cooldown over", ProfileState{CooldownUntil: past, CooldownReason: ReasonRateLimit}, ProfileStatus{State: StateAvailable}},
		{"model cooldown", ProfileState{CooldownUntil: soon, CooldownReason: ReasonRateLimit, CooldownModel: "gpt"},
			ProfileStatus{State: StateCooldown, Until: soon, Reason: ReasonRateLimit, Model: "gpt"}},
		{"disabled beats a cooldown", ProfileState{CooldownUntil: soon, CooldownReason: ReasonAuth, DisabledUntil: later, DisabledReason: ReasonBilling},
			ProfileStatus{State: StateDisabled, Until: later, Reason: ReasonBilling}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.state.Status(now); got != tc.want {
				t.Fatalf("Status = %+v, want %+v", got, tc.want)
			}
		})
	}
	st := ProfileState{LastFailureAt: now, LastSuccessAt: past}
	if st.LastUsed() != now {
		t.Fatalf("LastUsed = %v", st.LastUsed())
	}
}

// TestLateSuccessKeepsANewerFailure: a success recorded in the background
// after a newer failure must not reset that failure's counters.
func TestLateSuccessKeepsANewerFailure(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	st := ProfileState{}.RecordFailure(Failure{At: t0.Add(time.Second), Reason: ReasonRateLimit, Model: "m", ProviderReached: true}, Cooldowns{})
	late := st.RecordSuccess(t0)
	if late.ErrorCount != st.ErrorCount || late.Successes != 1 {
		t.Fatalf("after a late success: %+v, want the failure's count kept", late)
	}
	if fresh := st.RecordSuccess(t0.Add(2 * time.Second)); fresh.ErrorCount != 0 {
		t.Fatalf("after a newer success: ErrorCount %d, want 0", fresh.ErrorCount)
	}
}
