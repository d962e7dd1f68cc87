package runner

import (
	"context"
	"slices"
	"strings"

	"github.com/steer-tui/steer/agent"
)

// The host's methods that act on the current session, as Runtime's do.

// Steer queues steering in the current session, or starts a run with it.
func (h *Host) Steer(text string, images ...agent.Content) (agent.QueueItem, bool, error) {
	rt, err := h.input()
	if err != nil {
		return agent.QueueItem{}, false, err
	}
	return rt.Steer(text, images...)
}

// FollowUp queues a follow-up in the current session, or starts a run.
func (h *Host) FollowUp(text string, images ...agent.Content) (agent.QueueItem, bool, error) {
	rt, err := h.input()
	if err != nil {
		return agent.QueueItem{}, false, err
	}
	return rt.FollowUp(text, images...)
}

// Prompt starts a run in the current session.
func (h *Host) Prompt(text string, images ...agent.Content) error {
	rt, err := h.input()
	if err != nil {
		return err
	}
	return rt.Prompt(text, images...)
}

// Dequeue takes queued items of the current session back.
func (h *Host) Dequeue(id string) ([]agent.QueueItem, error) {
	rt, err := h.input()
	if err != nil {
		return nil, err
	}
	return rt.Dequeue(id)
}

// Abort aborts the current session's run on the user's behalf (Esc); runs
// in the background go on. In a sub-agent's session shown, it stops the
// sub-agent, whose parent is told so.
func (h *Host) Abort() { h.Current().Abort() }

// Compact summarises the current session's older history.
func (h *Host) Compact(ctx context.Context, instructions string) (CompactionEnd, error) {
	rt, err := h.input()
	if err != nil {
		return CompactionEnd{}, err
	}
	return rt.Compact(ctx, instructions)
}

// State is the current session's snapshot.
func (h *Host) State() State { return h.Current().State() }

// SessionID names the current session.
func (h *Host) SessionID() string { return h.Current().SessionID() }

// Workspace is the current session's workspace.
func (h *Host) Workspace() string { return h.Current().Workspace() }

// Models lists every configured model.
func (h *Host) Models() []agent.Model { return h.first.Models() }

// ModelProblem says why m cannot be used, or "".
func (h *Host) ModelProblem(m agent.Model) string { return h.first.ModelProblem(m) }

// SetModel switches the current session's model.
func (h *Host) SetModel(ref string) (agent.Model, error) {
	rt, err := h.input()
	if err != nil {
		return agent.Model{}, err
	}
	return rt.SetModel(ref)
}

// SetThinking sets the current session's thinking level; a sub-agent's
// session shown keeps its own.
func (h *Host) SetThinking(l agent.ThinkingLevel) {
	if rt, err := h.input(); err == nil {
		rt.SetThinking(l)
	}
}

// Profiles views every auth profile from the shared ledger.
func (h *Host) Profiles(ctx context.Context) ([]ProfileView, error) { return h.Current().Profiles(ctx) }

// ClearProfile ends profile id's cooldown or disabled window.
func (h *Host) ClearProfile(ctx context.Context, id string) error {
	return h.Current().ClearProfile(ctx, id)
}

// PreferProfile sets the current session's preferred auth profile ("" for
// none).
func (h *Host) PreferProfile(id string) error { return h.Current().PreferProfile(id) }

// LockProfile locks the current session to auth profile id ("" unlocks).
func (h *Host) LockProfile(id string) error { return h.Current().LockProfile(id) }

// Engines views the current session's context engines.
func (h *Host) Engines(ctx context.Context) (EnginesView, error) { return h.Current().Engines(ctx) }

// ClearQuarantine lifts engine's quarantine.
func (h *Host) ClearQuarantine(ctx context.Context, engine string) (bool, error) {
	return h.Current().ClearQuarantine(ctx, engine)
}

// Runs lists session sessionID's latest runs.
func (h *Host) Runs(ctx context.Context, sessionID string, limit int) ([]RunView, error) {
	return h.Current().Runs(ctx, sessionID, limit)
}

// Lanes views the lanes of every live steer process.
func (h *Host) Lanes(ctx context.Context) (LanesView, error) { return h.Current().Lanes(ctx) }

// ContextMeter measures the current session's next request.
func (h *Host) ContextMeter() ContextMeter { return h.Current().ContextMeter() }

// ListSessions lists the saved sessions of the current workspace. A session
// this process runs (in the background, or a sub-agent's) is marked
// Running rather than open elsewhere.
func (h *Host) ListSessions(ctx context.Context) ([]SessionInfo, error) {
	list, err := h.Current().ListSessions(ctx)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	here := map[string]bool{}
	for _, rt := range h.all {
		here[rt.SessionID()] = rt.agent.Running()
		for _, id := range rt.subs.childIDs() {
			here[id] = true
		}
	}
	h.mu.Unlock()
	for i, s := range list {
		if running, ok := here[s.ID]; ok {
			list[i].OpenElsewhere, list[i].Running = "", running
		}
	}
	return list, nil
}

func sortBackground(runs []BackgroundRun) {
	slices.SortFunc(runs, func(a, b BackgroundRun) int {
		if c := a.Since.Compare(b.Since); c != 0 {
			return c
		}
		return strings.Compare(a.SessionID, b.SessionID)
	})
}
