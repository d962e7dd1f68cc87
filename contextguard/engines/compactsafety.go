package engines

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// CompactSafetyTimeout bounds one compaction by a context engine, the
// built-in one included (seed: compactContextEngineWithSafetyTimeout, 300 s
// in OpenClaw). It is the outer net: an engine's own call limit
// (timeoutSeconds) and the built-in summary's (contextguard.SummaryTimeout)
// are meant to end a compaction first.
const CompactSafetyTimeout = 5 * time.Minute

// errCompactTimedOut is the cause of a compaction cut off by the safety
// timeout.
var errCompactTimedOut = errors.New("the compaction did not finish in time")

// CompactOutcome is a compaction as one result the caller checks (seed:
// `{ok}`): OK with the engine's result, or not OK with the reason. A
// failure never reaches the caller as an error or a panic.
type CompactOutcome struct {
	OK     bool
	Result CompactResult
	// Reason says why nothing was compacted: the engine's reason, its
	// error, or the timeout.
	Reason string
	// TimedOut: the safety timeout ended the compaction.
	TimedOut bool
	// Aborted: the caller's context ended it.
	Aborted bool
}

// CompactSafely asks e to compact req within limit (0: CompactSafetyTimeout)
// and turns whatever happens into one CompactOutcome. At the limit the
// call's context is cancelled and its answer no longer waited for, so an
// engine that never answers cannot hold the run: the run goes on with what
// it had. The time limit is not the engine's failure to judge: when e is a
// Guard, a compaction cut off here quarantines nothing (the Guard sees its
// caller's context end).
func CompactSafely(ctx context.Context, e Engine, req CompactRequest, limit time.Duration) CompactOutcome {
	if limit <= 0 {
		limit = CompactSafetyTimeout
	}
	cctx, cancel := context.WithTimeoutCause(ctx, limit, errCompactTimedOut)
	defer cancel()
	type answer struct {
		res CompactResult
		err error
	}
	done := make(chan answer, 1) // never blocks, even abandoned
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- answer{err: fmt.Errorf("the compaction panicked: %v", p)}
			}
		}()
		res, err := e.Compact(cctx, req)
		done <- answer{res, err}
	}()
	var a answer
	select {
	case a = <-done:
	case <-cctx.Done():
		a.err = context.Cause(cctx)
	}
	return compactOutcome(ctx.Err() != nil, errors.Is(context.Cause(cctx), errCompactTimedOut), limit, a.res, a.err)
}

// compactOutcome judges one compaction: aborted and timedOut say what ended
// its context, if anything, res and err what it returned.
func compactOutcome(aborted, timedOut bool, limit time.Duration, res CompactResult, err error) CompactOutcome {
	switch {
	case aborted:
		return CompactOutcome{Aborted: true, Reason: "the compaction was cancelled"}
	case timedOut && (err != nil || !res.Compacted):
		return CompactOutcome{TimedOut: true, Reason: fmt.Sprintf("the compaction did not finish within %v", limit)}
	case err != nil:
		return CompactOutcome{Reason: err.Error()}
	case !res.Compacted || len(res.Messages) == 0:
		reason := res.Reason
		if reason == "" {
			reason = "the context engine compacted nothing"
		}
		return CompactOutcome{Result: res, Reason: reason}
	}
	return CompactOutcome{OK: true, Result: res}
}
