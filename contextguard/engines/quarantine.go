package engines

import (
	"context"
	"errors"
	"time"
)

// Reason is the kind of failure that quarantined an engine.
type Reason string

// The failures that quarantine an engine (SPEC §6.4).
const (
	// ReasonError: the engine answered with an error.
	ReasonError Reason = "error"
	// ReasonPanic: an in-process engine panicked.
	ReasonPanic Reason = "panic"
	// ReasonTimeout: the engine did not answer within its time limit.
	ReasonTimeout Reason = "timeout"
	// ReasonCrash: the engine's process would not start, or ended.
	ReasonCrash Reason = "crash"
	// ReasonInvalidOutput: the answer broke the protocol or a result's
	// contract.
	ReasonInvalidOutput Reason = "invalid_output"
)

// Failure is an engine failure of a known kind. External returns one for a
// crash or bad output; the Guard makes one for a panic, a timeout or a
// result that breaks its contract. Any other error is ReasonError.
type Failure struct {
	Reason Reason
	Err    error
	// Stderr is the end of what the engine's program wrote on stderr before
	// it failed (see StderrTailer); "" when unknown.
	Stderr string
}

func (f *Failure) Error() string { return string(f.Reason) + ": " + f.Err.Error() }

func (f *Failure) Unwrap() error { return f.Err }

// ReasonOf is the kind of failure err is: a *Failure's reason, else
// ReasonError.
func ReasonOf(err error) Reason {
	if f, ok := errors.AsType[*Failure](err); ok {
		return f.Reason
	}
	return ReasonError
}

// Quarantine is the record of an engine that failed: the first failure
// (method, reason, error, when) and how many have been recorded since the
// quarantine began.
type Quarantine struct {
	Engine string    `json:"engine"`
	Method Method    `json:"method"`
	Reason Reason    `json:"reason"`
	Error  string    `json:"error"`
	Since  time.Time `json:"since"`
	// Last is when the latest failure was recorded.
	Last  time.Time `json:"last"`
	Count int       `json:"count"`
}

// Merge records next, a later failure of the same engine, into q: the first
// failure wins (its method, reason, error and time stay), the counts add up
// and Last is the later of the two. A zero q (nothing recorded yet) merges
// into next itself. A count below one counts as one.
func (q Quarantine) Merge(next Quarantine) Quarantine {
	next.Count = max(next.Count, 1)
	if next.Since.IsZero() {
		next.Since = next.Last
	}
	if next.Last.Before(next.Since) {
		next.Last = next.Since
	}
	if q.Count == 0 {
		return next
	}
	q.Count += next.Count
	if next.Last.After(q.Last) {
		q.Last = next.Last
	}
	return q
}

// QuarantineStore keeps quarantines where every steer process sees them and
// a restart finds them (persistence.Store.EngineQuarantines). Methods are
// safe for concurrent use, from any number of processes.
type QuarantineStore interface {
	// Record merges q into the engine's stored quarantine (Quarantine.Merge,
	// atomically) and returns what is stored now.
	Record(ctx context.Context, q Quarantine) (Quarantine, error)
	// Load returns the engine's quarantine, or false when it has none.
	Load(ctx context.Context, engine string) (Quarantine, bool, error)
	// List returns every quarantine, ordered by engine name.
	List(ctx context.Context) ([]Quarantine, error)
	// Clear lifts the engine's quarantine, reporting whether it had one.
	Clear(ctx context.Context, engine string) (bool, error)
}

// QuarantineEvent reports one failure the Guard recorded: which call failed
// and how, and the quarantine as it stands after it. The runner turns it
// into a `quarantine {engine, method, reason}` event and a log line.
type QuarantineEvent struct {
	Method Method
	Reason Reason
	Err    error
	// Stderr is the end of what the engine wrote on stderr before it
	// failed (StderrTailer), "" when it wrote nothing or keeps none.
	Stderr string
	// Quarantine is the record after this failure: its first failure, which
	// may be an earlier one, and the count including this one.
	Quarantine Quarantine
	// StoreErr is why the quarantine could not be stored, if it could not;
	// it then holds in this process only.
	StoreErr error
}
