package failover

import "time"

// ProfileStatus is how a profile stands at one moment, as the inspector and
// `steer inspect profiles` show it.
type ProfileStatus struct {
	// State is "available", "cooldown" or "disabled".
	State string
	// Until is when a cooldown or disabled window ends; zero when available.
	Until time.Time
	// Reason is why the window was opened; ReasonUnknown when available.
	Reason Reason
	// Model is the model a cooldown is scoped to; "" for the whole profile.
	Model string
}

// The states a profile can be in.
const (
	StateAvailable = "available"
	StateCooldown  = "cooldown"
	StateDisabled  = "disabled"
)

// Status reads a ledger entry at now: disabled beats a cooldown (it is the
// longer, stronger verdict), and an expired window is available.
func (s ProfileState) Status(now time.Time) ProfileStatus {
	switch {
	case s.DisabledUntil.After(now):
		return ProfileStatus{State: StateDisabled, Until: s.DisabledUntil, Reason: s.DisabledReason}
	case s.CooldownUntil.After(now):
		return ProfileStatus{State: StateCooldown, Until: s.CooldownUntil, Reason: s.CooldownReason, Model: s.CooldownModel}
	}
	return ProfileStatus{State: StateAvailable}
}

// LastUsed is when the profile last answered or failed; zero when never.
func (s ProfileState) LastUsed() time.Time { return later(s.LastFailureAt, s.LastSuccessAt) }
