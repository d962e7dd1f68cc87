package msgs

import "github.com/steer-tui/steer/agent"

// RunEventMsg is one flush of the streaming bridge: the runtime's events in
// order, with consecutive deltas coalesced. RunID counts the runs the bridge
// has seen (it grows at every agent_start); the root drops envelopes whose
// RunID is older than the run it shows.
type RunEventMsg struct {
	RunID  uint64
	Events []agent.Event
}

// SteerMsg asks to send Text: steering while a run is active (injected at the
// next turn boundary), a new prompt otherwise. Seq numbers the editor's
// submissions (see Submission).
type SteerMsg struct {
	Text string
	Seq  uint64
}

// FollowUpMsg asks to queue Text until the agent would otherwise stop, or to
// send it as a prompt when idle.
type FollowUpMsg struct {
	Text string
	Seq  uint64
}

// Submission is a request typed in the editor. Its Seq counts the editor's
// submissions from 1: Cmds deliver messages in no particular order, and two
// quick Enters must reach the runtime in the order they were typed, so the
// root handles submissions by Seq. Zero means unordered.
type Submission interface{ Order() uint64 }

// Order returns the submission's sequence number.
func (m SteerMsg) Order() uint64 { return m.Seq }

// Order returns the submission's sequence number.
func (m FollowUpMsg) Order() uint64 { return m.Seq }

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

// HintMsg asks to show a one-line hint in the status bar until the next key.
type HintMsg struct{ Text string }

// NoteMsg asks to add a line from steer itself to the transcript (a model
// change, a new session).
type NoteMsg struct {
	Text    string
	IsError bool
}
