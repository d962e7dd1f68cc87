package tui

import (
	"context"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/inspector"
	"github.com/steer-tui/steer/tui/msgs"
)

// Runtime is everything the TUI asks of the runtime facade, grouped by use;
// *runner.Host satisfies it (a *runner.Runtime too, but it announces no
// session switch: the TUI needs the host for /new and /sessions). All methods are called from tea.Cmd
// goroutines or the bridge, never from Update or View.
type Runtime interface {
	Inputs
	Events
	Settings
	Inspectors
	Tree
	History
	Prompts
	MCPServers // mcp.go
	Workspace  // trust.go
	ServerPrompts
	Library     // skills.go
	Rewinder    // rewind.go
	Permissions // permissions.go
	Planning    // plan.go
}

// History reads what a session was loaded without. It may do IO: it is
// called from tea.Cmd goroutines.
type History interface {
	// SavedEarlier reads the saved history of session sessionID from
	// before its compaction before (runner.State.EarlierSaved).
	SavedEarlier(ctx context.Context, sessionID, before string) ([]runner.HistoryEntry, error)
}

// Tree is the current session's transcript tree (/tree, /fork, /clone).
// The methods may do IO: they are called from tea.Cmd goroutines.
type Tree interface {
	Tree(ctx context.Context) (runner.SessionTree, error)
	// NavigateTree moves the leaf to entry id, the branch left summarised
	// first when summarize; the session is announced again.
	NavigateTree(ctx context.Context, id string, summarize bool) error
	LabelEntry(ctx context.Context, id, label string) error
	// Fork makes a new session of the path before user message id current
	// and answers with that message's text; Clone copies the whole path.
	Fork(ctx context.Context, id string) (string, error)
	Clone(ctx context.Context) error
}

// Inputs hands what the user types to the runtime and controls runs.
type Inputs interface {
	// Steer queues text as steering while a run is active, else starts a
	// run with it; queued reports which. It returns once the input is saved,
	// or with the reason it could not be; ctx bounds the save.
	Steer(ctx context.Context, text string, images ...agent.Content) (item agent.QueueItem, queued bool, err error)
	// FollowUp queues text until the agent would stop, else starts a run.
	FollowUp(ctx context.Context, text string, images ...agent.Content) (item agent.QueueItem, queued bool, err error)
	// Shell runs command as the user's own through the session's bash tool,
	// its output for the model unless private; queued like a follow-up
	// while a run is active (runner.Inputs.Shell).
	Shell(ctx context.Context, command string, private bool) (item agent.QueueItem, queued bool, err error)
	// Dequeue takes the queued item id back, or every item when id is "".
	Dequeue(ctx context.Context, id string) ([]agent.QueueItem, error)
	// DequeueIn is Dequeue in session sessionID, which fails once the
	// runtime has let that session go.
	DequeueIn(ctx context.Context, sessionID, id string) ([]agent.QueueItem, error)
	// Abort aborts the current session's run on the user's behalf (Esc);
	// queued items stay queued, runs in the background go on.
	Abort()
	// AbortWith aborts every active run, those in the background too, for
	// reason (runner.AbortQuit when the user quits), which their aborted
	// markers record.
	AbortWith(reason string)
	// Compact summarises the session's older history now (/compact); it
	// fails with agent.ErrBusy while a run is active, and cancelling ctx
	// abandons it.
	Compact(ctx context.Context, instructions string) (runner.CompactionEnd, error)
	// Approve answers the approval request of tool call id.
	// ApproveIn answers it where it waits: in session sessionID, a
	// sub-agent's (runner.ApprovalRequest.SessionID), or "" for the
	// current session's own run.
	ApproveIn(sessionID, id string, d runner.ApprovalDecision) error
	// WaitForIdle returns once no run is active, or with ctx's error.
	WaitForIdle(ctx context.Context) error
}

// Events is how the TUI learns what happens: a subscription to every event
// (the bridge's) and a snapshot for start-up and session switches.
type Events interface {
	// Subscribe calls fn with every event, in order, on the runtime's
	// goroutine; fn must return quickly and must not call Inputs.
	Subscribe(fn agent.Subscriber) (unsubscribe func())
	// State returns a snapshot: transcript, queue, model, thinking level,
	// and the last save's failure if it failed.
	State() runner.State
	// SubscribeNotices calls fn with every notice (a failed save, its
	// recovery), in order, on the runtime's goroutine; fn must return
	// quickly and must not call Inputs.
	SubscribeNotices(fn func(runner.Notice)) (unsubscribe func())
}

// Settings are the session-level choices the slash commands change.
type Settings interface {
	// Models lists the configured models and those the servers of
	// discovering providers listed last; it does no IO.
	Models() []agent.Model
	// ModelProblem says why m cannot be used ("ANTHROPIC_API_KEY is not
	// set"), or "" when it can; the model picker shows it.
	ModelProblem(m agent.Model) string
	// ModelDiscovered says whether m is offered only because its server
	// lists it; the model picker marks it.
	ModelDiscovered(m agent.Model) bool
	// RefreshModels lists the discovering providers' servers again and
	// returns once they answered, each within a few seconds, or ctx ended.
	RefreshModels(ctx context.Context)
	SetModel(ctx context.Context, ref string) (agent.Model, error)
	SetThinking(level agent.ThinkingLevel)
	// NewSession starts an empty session and announces it among the events
	// (runner.AnnotationSessionLoaded); a run of the session left behind
	// goes on in the background.
	NewSession(ctx context.Context) error
	// Budget and SetBudget are the current session's spend caps and what
	// was spent against them (/budget); Budget may do IO.
	Budget(ctx context.Context) (runner.BudgetStatus, error)
	SetBudget(l runner.BudgetLimits) error
}

// Inspectors are the runtime's state as the inspectors and the status bar
// show it: the inspectors' reads and clears (inspector.Source: snapshots
// read on demand, which may do IO), the session's choice of auth profile,
// and the context meter.
type Inspectors interface {
	inspector.Source
	// PreferProfile and LockProfile set the session's choice of auth
	// profile: tried first while usable, the only one used ("" for none).
	PreferProfile(ctx context.Context, id string) error
	LockProfile(ctx context.Context, id string) error
	// ContextMeter measures the next request against the model's window.
	// It does no IO.
	ContextMeter() runner.ContextMeter
	// StoreVersion moves when another steer process changed the shared
	// state (one cheap read): the badge reads the health again then.
	StoreVersion(ctx context.Context) (uint64, error)
}

// SessionBrowser lists and resumes saved sessions. It is optional (see
// Options.Sessions): without it /sessions says saved sessions are not
// available. Its methods are called from tea.Cmd goroutines and may do IO.
type SessionBrowser interface {
	// ListSessions returns the saved sessions, newest first.
	ListSessions(ctx context.Context) ([]SessionSummary, error)
	// SwitchSession makes session id the runtime's current session and
	// announces it among the events (runner.AnnotationSessionLoaded), which
	// is when the TUI shows it. A run of the session left behind goes on in
	// the background.
	SwitchSession(ctx context.Context, id string) error
	// RenameSession names saved session id ("" for the current one; an
	// empty name removes the name) and answers with the name as saved.
	RenameSession(ctx context.Context, id, name string) (string, error)
	// SearchSessions finds the sessions whose messages, titles or names
	// hold every word of query, best first: this workspace's, or every
	// workspace's when everywhere.
	SearchSessions(ctx context.Context, query string, everywhere bool) ([]SessionHit, error)
	// DeleteSession deletes saved session id, refused while it is open
	// here or in another steer.
	DeleteSession(ctx context.Context, id string) error
}

// SessionHit is a session a search found, with its matching line.
type SessionHit = msgs.SessionHit

// SessionSummary is one saved session as the picker lists it.
type SessionSummary = msgs.SessionSummary

var _ Runtime = (*runner.Host)(nil)

// RunnerSessions is the session side of *runner.Host.
type RunnerSessions interface {
	ListSessions(ctx context.Context) ([]runner.SessionInfo, error)
	SwitchSession(ctx context.Context, id string) error
	RenameSession(ctx context.Context, id, name string) (string, error)
	SearchSessions(ctx context.Context, query string, everywhere bool) ([]runner.SearchHit, error)
	DeleteSession(ctx context.Context, id string) error
}

// SessionsOf adapts the runtime's saved sessions to the picker's
// SessionBrowser.
func SessionsOf(rt RunnerSessions) SessionBrowser { return runnerSessions{rt} }

type runnerSessions struct{ rt RunnerSessions }

// ListSessions converts the runtime's session list.
func (s runnerSessions) ListSessions(ctx context.Context) ([]SessionSummary, error) {
	infos, err := s.rt.ListSessions(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]SessionSummary, len(infos))
	for i, in := range infos {
		out[i] = SessionSummary{ID: in.ID, Title: in.Title, Name: in.Name, Updated: in.Updated, Messages: in.Messages,
			OpenElsewhere: in.OpenElsewhere, Running: in.Running, ParentID: in.ParentID}
	}
	return out, nil
}

// SwitchSession switches the runtime's session.
func (s runnerSessions) SwitchSession(ctx context.Context, id string) error {
	return s.rt.SwitchSession(ctx, id)
}

// DeleteSession deletes a saved session.
func (s runnerSessions) DeleteSession(ctx context.Context, id string) error {
	return s.rt.DeleteSession(ctx, id)
}

// SearchSessions converts the runtime's search hits.
func (s runnerSessions) SearchSessions(ctx context.Context, query string, everywhere bool) ([]SessionHit, error) {
	hits, err := s.rt.SearchSessions(ctx, query, everywhere)
	if err != nil {
		return nil, err
	}
	out := make([]SessionHit, len(hits))
	for i, h := range hits {
		out[i] = SessionHit{ID: h.SessionID, Title: h.Title, Workspace: h.Workspace, Updated: h.Updated, Match: h.Snippet}
	}
	return out, nil
}

// RenameSession names a saved session.
func (s runnerSessions) RenameSession(ctx context.Context, id, name string) (string, error) {
	return s.rt.RenameSession(ctx, id, name)
}

var _ RunnerSessions = (*runner.Host)(nil)
