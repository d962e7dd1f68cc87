package failover

import (
	"context"
	"sync"
	"time"
)

// SuccessRecordSlow is how long recording a success may take before the
// runner logs a slow-path warning. Success is recorded after the run, in the
// background, so a slow ledger is seen rather than slowing every run. (seed)
const SuccessRecordSlow = time.Second

// Ledger is the shared failure ledger as the runner uses it: one
// ProfileState per profile id. The persistence layer implements it on
// SQLite (shared by every steer process on the state directory); MemLedger
// implements it in memory.
//
// Both methods may be called from any goroutine, concurrently. A profile
// never recorded loads as the zero state with its ProfileID set, not as an
// error; an error means the store itself failed, and the runner reports it
// and goes on without the ledger (a lost record must not fail the run).
// Cancelling ctx abandons the call; an Update abandoned that way changed
// nothing.
type Ledger interface {
	// Load returns the stored state of profile id.
	Load(ctx context.Context, id string) (ProfileState, error)
	// Update applies fn to the stored state of profile id atomically and
	// returns what was stored. fn must be pure: an implementation may call it
	// more than once (a retried transaction) and reconcile its result with a
	// concurrent writer's by Merge. The stored ProfileID is always id.
	Update(ctx context.Context, id string, fn func(ProfileState) ProfileState) (ProfileState, error)
}

// MemLedger is an in-memory Ledger for tests and for runs without a state
// directory. The zero value is ready to use.
type MemLedger struct {
	mu     sync.Mutex
	states map[string]ProfileState
}

// Load implements Ledger.
func (l *MemLedger) Load(ctx context.Context, id string) (ProfileState, error) {
	if err := ctx.Err(); err != nil {
		return ProfileState{}, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.load(id), nil
}

// Update implements Ledger.
func (l *MemLedger) Update(ctx context.Context, id string, fn func(ProfileState) ProfileState) (ProfileState, error) {
	if err := ctx.Err(); err != nil {
		return ProfileState{}, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	next := fn(l.load(id))
	next.ProfileID = id
	if l.states == nil {
		l.states = map[string]ProfileState{}
	}
	l.states[id] = next
	return next, nil
}

func (l *MemLedger) load(id string) ProfileState {
	if st, ok := l.states[id]; ok {
		return st
	}
	return ProfileState{ProfileID: id}
}
