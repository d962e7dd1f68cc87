package failover

import "time"

// ReasonCounts counts failures per reason, indexed by Reason.
type ReasonCounts [len(reasonCodes)]int

// ProfileState is one auth profile's entry in the failure ledger (SPEC §5.3):
// statistics, error counters and the two cooldown tracks. It is a value:
// every method returns a new state and never reads a clock, so the runner
// applies it inside Ledger.Update and the persistence layer stores it as a
// row and reconciles concurrent writers with Merge. It holds ids and
// statistics, never secrets.
//
// # Two tracks
//
// Ordinary cooldown (every ledgered reason but billing and auth_permanent):
// 30 s → 1 min → 5 min (cap) by consecutive error count, scoped to the
// failing model for the reasons that name it (ModelScoped: rate_limit,
// timeout, overloaded, model_not_found), profile-wide otherwise. When the failed response carried a hint (Retry-After, a
// rate-limit reset: RetryHint) longer than the schedule, the hint sets the
// length — the schedule is the floor — and CooldownSource records the
// header. Disabled (billing, auth_permanent): base × 2^(n−1), capped, n
// being that reason's count in the failure window; always profile-wide, and
// hints do not change it (its schedule is about the account, not the rate).
//
// # Windows
//
// An active window is never extended by failures inside it (retries must not
// push recovery out forever) — except to reach a hint, which is when the
// provider said to come back and is capped (MaxRetryHint); it is widened: a
// model-scoped cooldown becomes profile-wide when another model of the
// profile fails inside it or when a profile-level failure arrives, so
// switching model cannot dodge it.
//
// # Counters
//
// ErrorCount and ReasonCounts start over when the failure window (24 h) has
// passed since the last failure, or when the previous window expired and
// none is active any more — a profile whose cooldown just ended starts fresh
// instead of being punished at once for old failures. (seed) A consequence
// worth knowing: failures inside an active window raise the count but do not
// extend the window, and the count starts over once the window has passed, so
// the 1 min and 5 min steps are reached only when a new cooldown opens while
// the counters still hold earlier failures (say, failures counted during a
// disabled window). Most ordinary cooldowns are 30 s: the spec prefers a
// fresh start to escalating punishment.
type ProfileState struct {
	ProfileID string

	// Lifetime statistics.
	Failures          int       // ledgered failures
	Successes         int       // recorded successes
	LastFailureAt     time.Time // zero: never failed
	LastFailureReason Reason
	LastSuccessAt     time.Time // zero: never succeeded

	// Counters of the current failure window.
	ErrorCount   int // consecutive ledgered failures
	ReasonCounts ReasonCounts

	// The ordinary cooldown; CooldownModel "" means the whole profile.
	// CooldownSource says where its length came from: "" for the schedule,
	// else the header whose hint made it longer (SourceRetryAfter …).
	CooldownUntil  time.Time
	CooldownModel  string
	CooldownReason Reason
	CooldownSource string

	// The disabled track (billing, auth_permanent); always profile-wide.
	DisabledUntil  time.Time
	DisabledReason Reason
}

// Failure is one failed attempt as the ledger sees it.
type Failure struct {
	At              time.Time
	Reason          Reason
	Model           string // the model that failed, for model-scoped cooldowns
	ProviderReached bool   // false: the attempt failed before the provider answered anything
	// Hint is what the response said about when to come back (RetryHint);
	// the zero Hint says nothing.
	Hint Hint
}

// RecordFailure returns the state after a failure. A failure the ledger does
// not keep (Ledgered) returns the state unchanged.
func (s ProfileState) RecordFailure(f Failure, c Cooldowns) ProfileState {
	if !Ledgered(f.Reason, f.ProviderReached) {
		return s
	}
	if !s.LastFailureAt.IsZero() && f.At.Sub(s.LastFailureAt) > c.window() {
		s = s.resetCounters()
	}
	s = s.ClearExpired(f.At)

	s.Failures++
	if !f.At.Before(s.LastFailureAt) {
		s.LastFailureAt, s.LastFailureReason = f.At, f.Reason
	}
	s.ErrorCount++
	s.ReasonCounts[f.Reason]++

	if DisablesProfile(f.Reason) {
		if !s.DisabledUntil.After(f.At) {
			s.DisabledUntil = f.At.Add(c.Disabled(f.Reason, s.ReasonCounts[f.Reason]))
			s.DisabledReason = f.Reason
		}
		s.CooldownModel = "" // a profile-level failure widens any cooldown
		return s
	}

	scope := ""
	if ModelScoped(f.Reason) {
		scope = f.Model
	}
	hint := min(f.Hint.After, MaxRetryHint)
	if s.CooldownUntil.After(f.At) {
		if scope == "" || scope != s.CooldownModel {
			s.CooldownModel = ""
		}
		// A hint is when the provider said to come back, not a retry
		// pushing recovery out: the window reaches it, never beyond.
		if end := f.At.Add(hint); hint > 0 && end.After(s.CooldownUntil) {
			s.CooldownUntil, s.CooldownSource = end, f.Hint.Source
		}
		return s
	}
	d, source := c.Ordinary(s.ErrorCount), ""
	if hint > d { // the schedule is the floor; a longer hint wins
		d, source = hint, f.Hint.Source
	}
	s.CooldownUntil = f.At.Add(d)
	s.CooldownModel = scope
	s.CooldownReason = f.Reason
	s.CooldownSource = source
	return s
}

// RecordSuccess returns the state after a successful run: the statistics
// count it and the error counters start over. Active windows stay: a success
// on one model proves nothing about a rate-limited other model, and a
// disabled profile is not used at all.
func (s ProfileState) RecordSuccess(now time.Time) ProfileState {
	s.Successes++
	if now.After(s.LastSuccessAt) {
		s.LastSuccessAt = now
	}
	if now.Before(s.LastFailureAt) {
		return s // recorded late: a newer failure's counters stand
	}
	return s.resetCounters()
}

// ClearExpired drops windows that have ended by now; when none is left
// active, the error counters start over too. Profile ordering applies it
// first (SPEC §5.3), and RecordFailure before counting.
func (s ProfileState) ClearExpired(now time.Time) ProfileState {
	expired := false
	if !s.CooldownUntil.IsZero() && !s.CooldownUntil.After(now) {
		s.CooldownUntil, s.CooldownModel, s.CooldownReason, s.CooldownSource = time.Time{}, "", ReasonUnknown, ""
		expired = true
	}
	if !s.DisabledUntil.IsZero() && !s.DisabledUntil.After(now) {
		s.DisabledUntil, s.DisabledReason = time.Time{}, ReasonUnknown
		expired = true
	}
	if expired && s.CooldownUntil.IsZero() && s.DisabledUntil.IsZero() {
		s = s.resetCounters()
	}
	return s
}

func (s ProfileState) resetCounters() ProfileState {
	s.ErrorCount = 0
	s.ReasonCounts = ReasonCounts{}
	return s
}

// UntilSource says where the length of the window Status reports at now
// came from: SourceSchedule, or the header of a longer hint; "" while the
// profile is available. The disabled track always follows its schedule.
func (s ProfileState) UntilSource(now time.Time) string {
	switch st := s.Status(now); {
	case st.State == StateCooldown && s.CooldownSource != "":
		return s.CooldownSource
	case st.State != StateAvailable:
		return SourceSchedule
	}
	return ""
}

// Available reports whether the profile may serve model at now. When it may
// not, until is when it may again and why is EligibleDisabled or
// EligibleInCooldown (disabled first: it is the stronger, longer verdict;
// until is the later of the two windows that apply).
func (s ProfileState) Available(now time.Time, model string) (ok bool, until time.Time, why Eligibility) {
	cooling := s.CooldownUntil.After(now) && (s.CooldownModel == "" || s.CooldownModel == model)
	disabled := s.DisabledUntil.After(now)
	switch {
	case disabled && cooling:
		return false, later(s.DisabledUntil, s.CooldownUntil), EligibleDisabled
	case disabled:
		return false, s.DisabledUntil, EligibleDisabled
	case cooling:
		return false, s.CooldownUntil, EligibleInCooldown
	}
	return true, time.Time{}, EligibleOK
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
