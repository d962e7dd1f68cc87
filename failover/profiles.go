package failover

import (
	"slices"
	"time"
)

// Mode is how a profile's credential authenticates.
type Mode string

// The modes. A Want with an empty Mode accepts any.
const (
	ModeAPIKey Mode = "api_key"
	ModeOAuth  Mode = "oauth"
	ModeToken  Mode = "token"
)

// Profile is one credential for one provider (SPEC §5.3), e.g. one of two
// OpenAI keys. It carries the id and the scope, never the secret.
type Profile struct {
	ID       string
	Provider string
	Mode     Mode
	// Models limits the models this credential may serve; empty: every
	// model of the provider.
	Models []string
}

// Want is what a run asks of a profile: its provider, optionally a mode,
// and the model it will call.
type Want struct {
	Provider string
	Mode     Mode // "" accepts any mode
	Model    string
}

// Eligibility says whether a profile may serve a run and, when not, why —
// a code, not a boolean, so the UI can say why a profile was skipped.
type Eligibility int

// The eligibility codes, in the order Check tests them; EligibleNotLocked
// is Order's: another profile is locked for the session.
const (
	EligibleOK Eligibility = iota
	EligibleProfileMissing
	EligibleProviderMismatch
	EligibleModeMismatch
	EligibleModelOutOfScope
	EligibleDisabled
	EligibleInCooldown
	EligibleNotLocked
)

var eligibilityCodes = [...]string{
	EligibleOK:               "ok",
	EligibleProfileMissing:   "profile_missing",
	EligibleProviderMismatch: "provider_mismatch",
	EligibleModeMismatch:     "mode_mismatch",
	EligibleModelOutOfScope:  "model_out_of_scope",
	EligibleDisabled:         "disabled",
	EligibleInCooldown:       "in_cooldown",
	EligibleNotLocked:        "not_locked",
}

// String is the code.
func (e Eligibility) String() string {
	return codeOf(eligibilityCodes[:], e, "profile_missing")
}

// MarshalText writes the code.
func (e Eligibility) MarshalText() ([]byte, error) { return []byte(e.String()), nil }

// Waits reports whether the profile is only waiting for a window to end
// (in_cooldown, disabled) rather than unfit for the run.
func (e Eligibility) Waits() bool { return e == EligibleInCooldown || e == EligibleDisabled }

// Check says whether profile p (nil: not configured) may serve want at now,
// given its ledger state. until is set when the profile waits for a window.
func Check(p *Profile, st ProfileState, want Want, now time.Time) (e Eligibility, until time.Time) {
	switch {
	case p == nil:
		return EligibleProfileMissing, time.Time{}
	case p.Provider != want.Provider:
		return EligibleProviderMismatch, time.Time{}
	case want.Mode != "" && p.Mode != want.Mode:
		return EligibleModeMismatch, time.Time{}
	case len(p.Models) > 0 && !slices.Contains(p.Models, want.Model):
		return EligibleModelOutOfScope, time.Time{}
	}
	_, until, why := st.Available(now, want.Model)
	return why, until
}

// Candidate is one profile as ordered for a run.
type Candidate struct {
	ID          string
	Profile     Profile      // zero when the id names no profile
	State       ProfileState // the ledger state after ClearExpired
	Cleared     bool         // ClearExpired changed State: write it back to the ledger
	Eligibility Eligibility
	Until       time.Time // end of the window a waiting profile waits for
}

// OrderInput is what Order orders.
type OrderInput struct {
	Order     []string                // the configured order of profile ids: a hard constraint
	Profiles  map[string]Profile      // the run's candidate profiles by id (the scoped store)
	States    map[string]ProfileState // ledger states by id; a missing one is fresh
	Want      Want
	Preferred string // an explicitly requested profile id, or ""
	// Locked is the profile the session is locked to (OpenClaw's
	// lockedProfileId), or "": the only one the run may use.
	Locked string
}

// Order orders a run's profiles (SPEC §5.3). (seed) Expired cooldowns are
// cleared first, so a profile whose cooldown just ended starts with a fresh
// error count (the cleared states come back with Cleared set, for the
// runner to persist). Then, keeping the configured order as the hard
// constraint: available profiles first; profiles waiting for a cooldown or a
// disable behind them, soonest expiry first (configured order among equal
// expiries); the preferred profile, when it is among these, goes first —
// cooling down too, as the seed says, where rotation (Next) passes over it
// until its window ends, so in effect it goes first while eligible.
// Profiles that cannot serve the run at all come back in skipped, in
// configured order, each with its code; with a lock, that is every profile
// but the locked one (EligibleNotLocked), checked as usual itself, so a
// locked profile that cools down leaves the run nothing to rotate to.
// Duplicate ids count once.
func Order(in OrderInput, now time.Time) (usable, skipped []Candidate) {
	var ready, waiting []Candidate
	seen := map[string]bool{}
	for _, id := range in.Order {
		if seen[id] {
			continue
		}
		seen[id] = true
		c := candidate(in, id, now)
		switch {
		case in.Locked != "" && id != in.Locked:
			c.Eligibility, c.Until = EligibleNotLocked, time.Time{}
			skipped = append(skipped, c)
		case c.Eligibility == EligibleOK:
			ready = append(ready, c)
		case c.Eligibility.Waits():
			waiting = append(waiting, c)
		default:
			skipped = append(skipped, c)
		}
	}
	slices.SortStableFunc(waiting, func(a, b Candidate) int { return a.Until.Compare(b.Until) })
	usable = append(ready, waiting...)
	if i := slices.IndexFunc(usable, func(c Candidate) bool { return c.ID == in.Preferred }); i > 0 {
		preferred := usable[i]
		usable = slices.Insert(slices.Delete(usable, i, i+1), 0, preferred)
	}
	return usable, skipped
}

func candidate(in OrderInput, id string, now time.Time) Candidate {
	st, known := in.States[id]
	if !known {
		st = ProfileState{ProfileID: id}
	}
	cleared := st.ClearExpired(now)
	c := Candidate{ID: id, State: cleared, Cleared: known && cleared != st}
	p, ok := in.Profiles[id]
	var pp *Profile
	if ok {
		c.Profile, pp = p, &p
	}
	c.Eligibility, c.Until = Check(pp, cleared, in.Want, now)
	return c
}

// Next is rotation (SPEC §5.3): the first candidate, in order, that is
// available and not yet tried for this model in this run. A locked profile
// (OpenClaw's lockedProfileId; "" for none) stops rotation: only it may be
// returned, never another. ok is false when none is left. After a
// successful switch the runner resets the thinking level to its initial
// value: a new credential is a clean start. (seed)
func Next(cands []Candidate, tried []string, locked string) (c Candidate, ok bool) {
	for _, c := range cands {
		if rotatable(c, tried, locked) {
			return c, true
		}
	}
	return Candidate{}, false
}

// Left counts the candidates Next could still return; it is
// Facts.ProfilesLeft.
func Left(cands []Candidate, tried []string, locked string) int {
	n := 0
	for _, c := range cands {
		if rotatable(c, tried, locked) {
			n++
		}
	}
	return n
}

func rotatable(c Candidate, tried []string, locked string) bool {
	return c.Eligibility == EligibleOK && (locked == "" || c.ID == locked) && !slices.Contains(tried, c.ID)
}
