package msgs

import (
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
)

// SessionHit is a saved session the picker's search found.
type SessionHit struct {
	ID, Title, Workspace string
	Updated              time.Time
	// Match is the matching text, the words found in [brackets].
	Match string
}

// SessionSummary is one saved session as the picker shows it.
type SessionSummary struct {
	ID    string
	Title string
	// Name is what the user named the session (/name); "" for none.
	Name     string
	Updated  time.Time
	Messages int
	// OpenElsewhere names the steer process that has the session open
	// ("pid 4242 on box"); such a session cannot be resumed here.
	OpenElsewhere string
	// Running says that a run of it goes on in this steer (in the
	// background, or a sub-agent's).
	Running bool
	// ParentID names the session whose sub-agent it is; "" for none.
	ParentID string
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

// SessionLoadedMsg is a session's state to show, whole: at start (read
// from the runtime) and after a switch (the snapshot the runtime announced
// among its events, Switched set), with the settings of the status bar.
type SessionLoadedMsg struct {
	SessionID string
	// Earlier is the history compacted away (runner.State.Earlier), shown
	// before Messages, which the model sees.
	Earlier []runner.HistoryEntry
	// EarlierSaved, when not "", is the compaction (Earlier's first entry)
	// before which the session has saved history not read yet
	// (runner.State.EarlierSaved); EarlierLoadedMsg brings it.
	EarlierSaved string
	Messages     []agent.Message
	Queue        []agent.QueueItem
	Model        agent.Model
	Thinking     agent.ThinkingLevel
	Running      bool
	// PersistError says why the last save failed, if it did.
	PersistError string
	// Todo is the session's todo list (runner.State.Todo).
	Todo runner.TodoList
	// Approval is the session's approval mode and PlanFile its plan file
	// while that is plan (runner.State.Approval, PlanFile).
	Approval runner.ApprovalMode
	PlanFile string
	// RunStarted is when the run under way began (the elapsed time counts
	// from it); zero when none is.
	RunStarted time.Time
	// Stalled is when the run under way last made progress, while it is
	// stalled (runner.State.Stalled); zero otherwise.
	Stalled time.Time
	// Streaming is the answer streaming now in a running session the user
	// switched to, nil otherwise.
	Streaming *agent.Message
	// Approvals are the tool calls of a running session that wait for the
	// user's answer.
	Approvals []runner.ApprovalRequest
	// Subagents are where the session's sub-agents stand.
	Subagents []runner.SubagentProgress
	// Subagent says that the session is a running sub-agent's, shown
	// read-only.
	Subagent bool
	// Switched says that the runtime announced the switch (in order with
	// its events); the note of the request that asked for it goes with it.
	Switched bool
	// Note is shown in the transcript when not empty ("new session").
	Note string
}

// EarlierLoadedMsg brings the saved history of session SessionID from
// before compaction Before (SessionLoadedMsg.EarlierSaved), oldest first,
// to show above what the session was loaded with, or Err, why it could not
// be read.
type EarlierLoadedMsg struct {
	SessionID, Before string
	Entries           []runner.HistoryEntry
	Err               error
}
