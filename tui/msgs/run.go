package msgs

import (
	"time"

	"github.com/steer-tui/steer/agent"
)

// RunEventMsg is one flush of the streaming bridge: the runtime's events in
// order, with consecutive deltas coalesced. RunID counts the runs the bridge
// has seen (it grows at every agent_start); the root drops envelopes whose
// RunID is older than the run it shows.
type RunEventMsg struct {
	RunID  uint64
	Events []agent.Event
}

// SteerMsg asks to send Text: steering while a run is active (injected at the
// next turn boundary), a new prompt otherwise.
type SteerMsg struct {
	Text string
	// Attach are the paths of the images attached beside the text; the
	// files the text @-mentions are attached too.
	Attach []string
}

// FollowUpMsg asks to queue Text until the agent would otherwise stop, or to
// send it as a prompt when idle.
type FollowUpMsg struct {
	Text   string
	Attach []string // as SteerMsg's
}

// AbortRunMsg asks to abort the active run.
type AbortRunMsg struct{}

// ErrorMsg reports a failed request in one line for the status bar; it
// clears on the next key.
type ErrorMsg struct {
	// Action says what failed, e.g. "switch model".
	Action string
	Err    error
}

// Error says what failed and why, in one line.
func (e ErrorMsg) Error() string { return "cannot " + e.Action + ": " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e ErrorMsg) Unwrap() error { return e.Err }

// HintMsg asks to show a one-line hint in the status bar until the next key,
// or for For when that is set (a newer hint replaces it either way).
type HintMsg struct {
	Text string
	For  time.Duration
}

// NoteMsg asks to add a line from steer itself to the transcript (a model
// change, a new session).
type NoteMsg struct {
	Text    string
	IsError bool
}
