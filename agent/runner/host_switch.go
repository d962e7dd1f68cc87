package runner

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/steer-tui/steer/persistence"
)

// How the host changes its current session: a switch to a saved one, a new
// one, and the runtimes it takes for them (a spare, or a new one).

// SwitchSession makes the saved session id current. A run of the session
// left behind goes on in the background; an idle one is let go. A session
// running in the background becomes current again, as it stands; a running
// sub-agent's is shown as it runs, taking no input (ErrSubagentSession).
func (h *Host) SwitchSession(ctx context.Context, id string) error {
	h.switchMu.Lock()
	defer h.switchMu.Unlock()
	h.mu.Lock()
	cur := h.current
	owned := h.owns(cur)
	child := h.runningChild(id)
	if cur.SessionID() == id && (owned || child != nil) {
		h.mu.Unlock()
		return nil // a sub-agent's shown that has answered opens afresh, writable
	}
	for rt := range h.background {
		if rt.SessionID() == id {
			delete(h.background, rt)
			h.mu.Unlock()
			h.showInstead(cur, rt)
			return nil
		}
	}
	h.mu.Unlock()
	if cur.store == nil {
		return errors.New("saved sessions are not available without a state directory")
	}
	if child != nil {
		// Its parent's runtime writes it: shown as it runs, read-only.
		h.showInstead(cur, child)
		return nil
	}
	if owned && !cur.agent.Running() {
		if err := cur.SwitchSession(ctx, id); err != nil {
			return err
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		h.attach(cur)
		return nil
	}
	sess, err := cur.store.Session(ctx, id)
	if errors.Is(err, persistence.ErrNotFound) {
		return fmt.Errorf("no saved session %q; 'steer sessions' lists them", id)
	}
	if err != nil {
		return err
	}
	rt, err := h.spare(ctx, sess.Workspace, func(rt *Runtime) error { return rt.SwitchSession(ctx, id) },
		func(o *Options) { o.Session = id })
	if err != nil {
		return err
	}
	h.showInstead(cur, rt)
	return nil
}

// NewSession makes an empty session current; a run of the one left behind
// goes on in the background.
func (h *Host) NewSession(ctx context.Context) error {
	h.switchMu.Lock()
	defer h.switchMu.Unlock()
	h.mu.Lock()
	cur := h.current
	owned := h.owns(cur)
	h.mu.Unlock()
	if owned && !cur.agent.Running() {
		if err := cur.NewSession(ctx); err != nil {
			return err
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		h.attach(cur)
		return nil
	}
	if cur.store == nil {
		return errors.New("a run is active, and without a state directory it cannot go on in the background: interrupt it (esc) first")
	}
	settings := cur.agent.State()
	rt, err := h.spare(ctx, cur.opts.Workspace, func(rt *Runtime) error {
		rt.settings.setModel(settings.Model)
		return nil
	}, func(*Options) {})
	if err != nil {
		return err
	}
	h.showInstead(cur, rt)
	return nil
}

// showInstead sets cur aside and makes rt current. h.switchMu is held.
func (h *Host) showInstead(cur, rt *Runtime) {
	h.setAside(cur)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.makeCurrent(rt)
}

// makeCurrent attaches rt, which has the current model settings, and
// updates the badge. h.mu is held.
func (h *Host) makeCurrent(rt *Runtime) {
	h.current = rt
	h.attach(rt)
	h.announceBackground()
}

// spare is a runtime for another session while the current one runs, in
// workspace (whose tools it needs): a spare of that workspace made ready by
// open, or a new one from the first's options (edited by edit). Either has
// the current thinking level; the model is the session's (open sets it for
// a new session). h.switchMu is held; the opening is done outside h.mu.
func (h *Host) spare(ctx context.Context, workspace string, open func(*Runtime) error, edit func(*Options)) (*Runtime, error) {
	h.mu.Lock()
	settings := h.current.agent.State()
	var rt *Runtime
	if i := slices.IndexFunc(h.spares, func(s *Runtime) bool { return s.opts.Workspace == workspace }); i >= 0 {
		rt = h.spares[i]
		h.spares = slices.Delete(h.spares, i, i+1)
	}
	h.mu.Unlock()
	if rt != nil {
		if err := open(rt); err != nil {
			h.mu.Lock()
			h.spares = append(h.spares, rt)
			h.mu.Unlock()
			return nil, err
		}
		rt.SetThinking(settings.Thinking)
		return rt, nil
	}
	opts := h.first.given
	opts.Session, opts.Continue, opts.Workspace = "", false, workspace
	opts.Lanes, opts.Ledger = h.first.sched, h.first.ledger
	opts.Model, opts.Thinking = settings.Model.Ref(), settings.Thinking
	edit(&opts)
	rt, err := New(ctx, opts)
	if err != nil {
		return nil, err
	}
	rt.lanesOwner = h.first.lanesOwner
	h.mu.Lock()
	defer h.mu.Unlock()
	h.adopt(rt)
	return rt, nil
}

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

// RenameSession names saved session id ("" for the current one); an empty
// name removes it. It answers with the name as saved.
func (h *Host) RenameSession(ctx context.Context, id, name string) (string, error) {
	return h.Current().RenameSession(ctx, id, name)
}

// SearchSessions finds the saved sessions matching query in this workspace,
// or in every workspace when everywhere (the session picker's search).
func (h *Host) SearchSessions(ctx context.Context, query string, everywhere bool) ([]SearchHit, error) {
	return h.Current().SearchSessions(ctx, query, everywhere)
}

// DeleteSession deletes saved session id, refused while it is open here or
// in another steer.
func (h *Host) DeleteSession(ctx context.Context, id string) error {
	return h.Current().DeleteSession(ctx, id)
}
