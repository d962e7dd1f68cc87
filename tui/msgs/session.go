package msgs

import (
	"time"

	"github.com/steer-tui/steer/agent"
)

// SessionSummary is one saved session as the picker shows it.
type SessionSummary struct {
	ID       string
	Title    string
	Updated  time.Time
	Messages int
}

// NewSessionMsg asks to start an empty session.
type NewSessionMsg struct{}

// OpenSessionsMsg asks to list saved sessions in a picker.
type OpenSessionsMsg struct{}

// SessionsListedMsg reports the saved sessions, newest first.
type SessionsListedMsg struct{ Sessions []SessionSummary }

// ResumeSessionMsg asks to switch to the saved session ID; Title names it in
// the transcript.
type ResumeSessionMsg struct{ ID, Title string }

// SessionLoadedMsg reports the runtime's state after start, a new session or
// a switch: the transcript to show and the settings of the status bar.
type SessionLoadedMsg struct {
	SessionID string
	Messages  []agent.Message
	Queue     []agent.QueueItem
	Model     agent.Model
	Thinking  agent.ThinkingLevel
	Running   bool
	// Saved holds queued items taken out of the previous session so that
	// they are not lost; they go back into the editor.
	Saved []agent.QueueItem
	// Note is shown in the transcript when not empty ("new session").
	Note string
}
