package agent

import (
	"context"
	"errors"
)

// AbortError is the cause of a run's cancellation: Reason becomes the
// errorMessage of the aborted marker, so a transcript says why a run stopped
// (the user's Esc, a timeout, a quit, a signal).
type AbortError struct{ Reason string }

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
