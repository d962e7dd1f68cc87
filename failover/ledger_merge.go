package failover

import "time"

// Merge reconciles two states of the same profile written concurrently by
// different processes (each read the stored row, applied its change and
// wants to write back). It is pure, commutative and idempotent. The exact
// path is Ledger.Update run inside one write transaction (read, fn, write),
// which serialises processes; Merge is for when that cannot hold — a state
// computed from an earlier read, a retried write, a cache flushed late —
// and is conservative: no window a failure opened is lost. Rules:
//
//   - Windows first drop what has expired by now (ClearExpired on both), so a
//     stale window cannot widen a live one.
//   - No failure's window is lost: the later end of each window wins; the
//     cooldown's scope is the wider one — profile-wide if either side is
//     profile-wide or the two sides cool different models.
//   - Counts (Failures, Successes, ErrorCount, each ReasonCounts entry) take
//     the maximum. Both sides start from one stored ancestor, so the maximum
//     is exact when one side changed and an undercount, never an
//     overcount, when both did: statistics may lag, windows never do.
//   - Last-seen times take the later; a reason travels with its time (ties:
//     the stronger reason), and a cooldown's source with its window.
//   - The profile id is a's, or b's when a has none.
func Merge(a, b ProfileState, now time.Time) ProfileState {
	a, b = a.ClearExpired(now), b.ClearExpired(now)
	m := ProfileState{
		ProfileID:    a.ProfileID,
		Failures:     max(a.Failures, b.Failures),
		Successes:    max(a.Successes, b.Successes),
		ErrorCount:   max(a.ErrorCount, b.ErrorCount),
		ReasonCounts: maxCounts(a.ReasonCounts, b.ReasonCounts),
	}
	if m.ProfileID == "" {
		m.ProfileID = b.ProfileID
	}
	m.LastFailureAt, m.LastFailureReason = latestWith(a.LastFailureAt, a.LastFailureReason, b.LastFailureAt, b.LastFailureReason)
	m.LastSuccessAt = later(a.LastSuccessAt, b.LastSuccessAt)
	m.DisabledUntil, m.DisabledReason = latestWith(a.DisabledUntil, a.DisabledReason, b.DisabledUntil, b.DisabledReason)
	m.CooldownUntil, m.CooldownReason = latestWith(a.CooldownUntil, a.CooldownReason, b.CooldownUntil, b.CooldownReason)
	m.CooldownSource = sourceOf(m, a, b)
	m.CooldownModel = widerScope(a, b)
	return m
}

// sourceOf is the cooldown source of the side whose window m kept; when
// both sides kept the same window, the greater source, so that the result
// does not depend on the argument order.
func sourceOf(m, a, b ProfileState) string {
	fromA := m.CooldownUntil.Equal(a.CooldownUntil) && m.CooldownReason == a.CooldownReason
	fromB := m.CooldownUntil.Equal(b.CooldownUntil) && m.CooldownReason == b.CooldownReason
	switch {
	case fromA && fromB:
		return max(a.CooldownSource, b.CooldownSource)
	case fromB:
		return b.CooldownSource
	}
	return a.CooldownSource
}

// latestWith returns the later time with its reason; equal times keep the
// stronger reason, so the result does not depend on the argument order.
func latestWith(ta time.Time, ra Reason, tb time.Time, rb Reason) (time.Time, Reason) {
	switch {
	case ta.After(tb):
		return ta, ra
	case tb.After(ta):
		return tb, rb
	case Stronger(rb, ra):
		return tb, rb
	}
	return ta, ra
}

func widerScope(a, b ProfileState) string {
	switch {
	case a.CooldownUntil.IsZero():
		return b.CooldownModel
	case b.CooldownUntil.IsZero():
		return a.CooldownModel
	case a.CooldownModel == b.CooldownModel:
		return a.CooldownModel
	}
	return ""
}

func maxCounts(a, b ReasonCounts) ReasonCounts {
	for i := range a {
		a[i] = max(a[i], b[i])
	}
	return a
}
