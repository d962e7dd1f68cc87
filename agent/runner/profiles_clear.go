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
// profiles.
func (r *Runtime) ClearProfile(ctx context.Context, id string) error {
	if !r.hasProfile(id) {
		return &UnknownProfileError{ID: id}
	}
	if r.store != nil && r.opts.Rehearsal == "" {
		return r.store.ClearProfile(ctx, id)
	}
	_, err := r.ledger.Update(ctx, id, clearWindows)
	return err
}

// UnknownProfileError is a clear of a profile that is not configured; rpc
// and `steer inspect profiles --clear` say it in these words.
type UnknownProfileError struct{ ID string }

func (e *UnknownProfileError) Error() string {
	return fmt.Sprintf("no auth profile %q is configured", e.ID)
}

func (r *Runtime) hasProfile(id string) bool {
	for _, p := range r.opts.Providers {
		for _, pr := range p.profiles() {
			if pr.ID == id {
				return true
			}
		}
	}
	return false
}

// clearWindows is a ledger entry without its windows and failure-window
// counters, as persistence.Store.ClearProfile leaves a stored one.
func clearWindows(st failover.ProfileState) failover.ProfileState {
	st.ErrorCount, st.ReasonCounts = 0, failover.ReasonCounts{}
	st.CooldownUntil, st.CooldownModel, st.CooldownReason, st.CooldownSource = time.Time{}, "", failover.ReasonUnknown, ""
	st.DisabledUntil, st.DisabledReason = time.Time{}, failover.ReasonUnknown
	return st
}
