// Package headless runs steer without a screen: `steer run` (one prompt, its
// answer or its JSON event stream, and an exit status) and `steer sessions`
// (saved sessions and transcripts, as text or JSON).
package headless

// Exit statuses of SPEC §10.
const (
	ExitOK        = 0
	ExitFailed    = 1
	ExitUsage     = 2
	ExitTimedOut  = 3
	ExitCancelled = 130
)
