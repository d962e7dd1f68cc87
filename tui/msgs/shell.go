package msgs

// ShellMsg asks to run Command as the user's own shell command (`!cmd`),
// through the session's bash tool; its output goes to the model's next
// request unless Private (`!!cmd`). While a run is active it is queued like
// a follow-up.
type ShellMsg struct {
	Command string
	Private bool
}
