package agent

import (
	"context"
	"errors"
)

// AbortError is the cause of a run's cancellation: Reason becomes the
// errorMessage of the marker that closes the run, so a transcript says why a
// run stopped (the user's Esc, a timeout, a quit, a signal, a fault).
type AbortError struct {
	Reason string
	// Fault marks a run stopped because something broke (a subscriber
	// panicked) rather than by a decision: its marker has stopReason error,
	// not aborted, as a loop that fails does.
	Fault bool
}

func (e *AbortError) Error() string { return e.Reason }

// AbortReason is why ctx was cancelled, as an aborted marker words it:
// the reason given to Agent.AbortWith, else AbortedMessage.
func AbortReason(ctx context.Context) string {
	var ae *AbortError
	if errors.As(context.Cause(ctx), &ae) && ae.Reason != "" {
		return ae.Reason
	}
	return AbortedMessage
}

// cancelledStop is how the last message of a cancelled run ends: aborted with
// AbortReason, or error when the cause is a fault.
func cancelledStop(ctx context.Context) (StopReason, string) {
	var ae *AbortError
	if errors.As(context.Cause(ctx), &ae) && ae.Fault {
		return StopReasonError, AbortReason(ctx)
	}
	return StopReasonAborted, AbortReason(ctx)
}
