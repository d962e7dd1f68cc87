package runner

import (
	"context"
	"slices"
	"strings"

	"github.com/steer-tui/steer/agent"
)

// currentSession is the host's methods that act on the current session
// as Runtime's do: each finds the runtime to act on (current; input, which
// refuses a sub-agent's session shown, for what changes the session) and
// forwards to it. What every session shares (the models, the store's
// counter) comes from first. It calls nothing else of the host.
type currentSession struct {
	current func() *Runtime
	input   func() (*Runtime, error)
	first   *Runtime
}

// Steer queues steering in the current session, or starts a run with it.
func (c *currentSession) Steer(ctx context.Context, text string, images ...agent.Content) (agent.QueueItem, bool, error) {
	rt, err := c.input()
	if err != nil {
		return agent.QueueItem{}, false, err
	}
	return rt.Steer(ctx, text, images...)
}

// FollowUp queues a follow-up in the current session, or starts a run.
func (c *currentSession) FollowUp(ctx context.Context, text string, images ...agent.Content) (agent.QueueItem, bool, error) {
	rt, err := c.input()
	if err != nil {
		return agent.QueueItem{}, false, err
	}
	return rt.FollowUp(ctx, text, images...)
}

// Prompt starts a run in the current session.
func (c *currentSession) Prompt(ctx context.Context, text string, images ...agent.Content) error {
	rt, err := c.input()
	if err != nil {
		return err
	}
	return rt.Prompt(ctx, text, images...)
}

// Dequeue takes queued items of the current session back.
func (c *currentSession) Dequeue(ctx context.Context, id string) ([]agent.QueueItem, error) {
	rt, err := c.input()
	if err != nil {
		return nil, err
	}
	return rt.Dequeue(ctx, id)
}

// Abort aborts the current session's run on the user's behalf (Esc); runs
// in the background go on. In a sub-agent's session shown, it stops the
// sub-agent, whose parent is told so.
func (c *currentSession) Abort() { c.current().Abort() }

// Compact summarises the current session's older history.
func (c *currentSession) Compact(ctx context.Context, instructions string) (CompactionEnd, error) {
	rt, err := c.input()
	if err != nil {
		return CompactionEnd{}, err
	}
	return rt.Compact(ctx, instructions)
}

// State is the current session's snapshot.
func (c *currentSession) State() State { return c.current().State() }

// SavedEarlier reads the saved history of any session from before one of
// its compactions (see State.EarlierSaved); every session shares the store.
func (c *currentSession) SavedEarlier(ctx context.Context, sessionID, before string) ([]HistoryEntry, error) {
	return c.first.SavedEarlier(ctx, sessionID, before)
}

// SessionID names the current session.
func (c *currentSession) SessionID() string { return c.current().SessionID() }

// Workspace is the current session's workspace.
func (c *currentSession) Workspace() string { return c.current().Workspace() }

// Models lists every model, the configured and the discovered.
func (c *currentSession) Models() []agent.Model { return c.first.Models() }

// ModelDiscovered says whether only m's server lists m.
func (c *currentSession) ModelDiscovered(m agent.Model) bool { return c.first.ModelDiscovered(m) }

// RefreshModels lists the discovering providers' servers again.
func (c *currentSession) RefreshModels(ctx context.Context) { c.first.RefreshModels(ctx) }

// ModelProblem says why m cannot be used, or "".
func (c *currentSession) ModelProblem(m agent.Model) string { return c.first.ModelProblem(m) }

// SetModel switches the current session's model.
func (c *currentSession) SetModel(ctx context.Context, ref string) (agent.Model, error) {
	rt, err := c.input()
	if err != nil {
		return agent.Model{}, err
	}
	return rt.SetModel(ctx, ref)
}

// SetThinking sets the current session's thinking level; a sub-agent's
// session shown keeps its own.
func (c *currentSession) SetThinking(l agent.ThinkingLevel) {
	if rt, err := c.input(); err == nil {
		rt.SetThinking(l)
	}
}

// Profiles views every auth profile from the shared ledger.
func (c *currentSession) Profiles(ctx context.Context) ([]ProfileView, error) {
	return c.current().Profiles(ctx)
}

// ClearProfile ends profile id's cooldown or disabled window.
func (c *currentSession) ClearProfile(ctx context.Context, id string) error {
	return c.current().ClearProfile(ctx, id)
}

// PreferProfile sets the current session's preferred auth profile ("" for
// none).
func (c *currentSession) PreferProfile(ctx context.Context, id string) error {
	return c.current().PreferProfile(ctx, id)
}

// LockProfile locks the current session to auth profile id ("" unlocks).
func (c *currentSession) LockProfile(ctx context.Context, id string) error {
	return c.current().LockProfile(ctx, id)
}

// Engines views the current session's context engines.
func (c *currentSession) Engines(ctx context.Context) (EnginesView, error) {
	return c.current().Engines(ctx)
}

// ClearQuarantine lifts engine's quarantine.
func (c *currentSession) ClearQuarantine(ctx context.Context, engine string) (bool, error) {
	return c.current().ClearQuarantine(ctx, engine)
}

// Runs lists session sessionID's latest runs.
func (c *currentSession) Runs(ctx context.Context, sessionID string, limit int) ([]RunView, error) {
	return c.current().Runs(ctx, sessionID, limit)
}

// Lanes views the lanes of every live steer process.
func (c *currentSession) Lanes(ctx context.Context) (LanesView, error) { return c.current().Lanes(ctx) }

// ContextMeter measures the current session's next request.
func (c *currentSession) ContextMeter() ContextMeter { return c.current().ContextMeter() }

// StoreVersion is the store's counter (Runtime.StoreVersion): the sessions
// of a host share one store.
func (c *currentSession) StoreVersion(ctx context.Context) (uint64, error) {
	return c.first.StoreVersion(ctx)
}

func sortBackground(runs []BackgroundRun) {
	slices.SortFunc(runs, func(a, b BackgroundRun) int {
		if c := a.Since.Compare(b.Since); c != 0 {
			return c
		}
		return strings.Compare(a.SessionID, b.SessionID)
	})
}
