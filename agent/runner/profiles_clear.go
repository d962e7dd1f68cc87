package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/steer-tui/steer/failover"
)

// ClearProfile ends auth profile id's cooldown and disabled windows and
// starts its error counters over, so that the next request may use it at
// once; its lifetime statistics stay (the inspector's "clear cooldown").
// With a state directory the shared ledger is cleared for every steer
// process (a rehearsal clears its own); id must be one of the configured
// profiles. A window that was open is announced as cooldown_cleared with
// source "user" (cooldownevents.go).
func (i *inspectors) ClearProfile(ctx context.Context, id string) error {
	if !i.catalog.hasProfile(id) {
		return i.catalog.unknownProfile(id)
	}
	return i.profiles.clear(ctx, id)
}

// clear ends profile id's windows (see ClearProfile) and announces the one
// that was open.
func (l *profileLedger) clear(ctx context.Context, id string) error {
	now := l.now()
	before, loadErr := l.ledger.Load(ctx, id)
	if loadErr != nil { // the clear matters more than its announcement
		l.log.Warn("reading the auth-profile ledger failed", "profile", id, "error", loadErr)
	}
	var err error
	if l.clearStored != nil {
		err = l.clearStored(ctx, id)
	} else {
		_, err = l.ledger.Update(ctx, id, clearWindows)
	}
	if err != nil {
		return err
	}
	if st := before.Status(now); loadErr == nil && st.State != failover.StateAvailable {
		l.cleared(CooldownCleared{Profile: id, Model: st.Model, Source: ClearedByUser})
	}
	return nil
}

// UnknownProfileError is a profile id that is not configured (a clear,
// --profile, a choice in /profiles); rpc and `steer inspect profiles
// --clear` say it in these words. Known lists the configured ones, when the
// error knows them.
type UnknownProfileError struct {
	ID    string
	Known []string
}

func (e *UnknownProfileError) Error() string {
	if e.Known == nil {
		return fmt.Sprintf("no auth profile %q is configured", e.ID)
	}
	return fmt.Sprintf("no auth profile %q is configured (configured: %s)", e.ID, knownProfiles(e.Known))
}

// clearWindows is a ledger entry without its windows and failure-window
// counters, as persistence.Store.ClearProfile leaves a stored one.
func clearWindows(st failover.ProfileState) failover.ProfileState {
	st.ErrorCount, st.ReasonCounts = 0, failover.ReasonCounts{}
	st.CooldownUntil, st.CooldownModel, st.CooldownReason, st.CooldownSource = time.Time{}, "", failover.ReasonUnknown, ""
	st.DisabledUntil, st.DisabledReason = time.Time{}, failover.ReasonUnknown
	return st
}
