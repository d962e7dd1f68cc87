package runner

import (
	"context"
	"errors"
)

// errNotOwnSession refuses a change to the tree of a sub-agent's session
// shown: its parent's runtime writes it.
var errNotOwnSession = errors.New("this is a sub-agent's session: its tree changes only through its parent")

// Tree is the current session's tree.
func (h *Host) Tree(ctx context.Context) (SessionTree, error) { return h.Current().Tree(ctx) }

// LabelEntry labels entry id of the current session ("" removes the label).
func (h *Host) LabelEntry(ctx context.Context, id, label string) error {
	return h.withOwn(func(rt *Runtime) error { return rt.LabelEntry(ctx, id, label) }, false)
}

// NavigateTree moves the current session's leaf to entry id (see
// Runtime.NavigateTree) and announces the session as it stands then.
func (h *Host) NavigateTree(ctx context.Context, id string, summarize bool) error {
	return h.withOwn(func(rt *Runtime) error { return rt.NavigateTree(ctx, id, summarize) }, true)
}

// Fork makes a fork of the current session before user message id current
// and answers with that message's text (see Runtime.Fork).
func (h *Host) Fork(ctx context.Context, id string) (string, error) {
	var text string
	err := h.withOwn(func(rt *Runtime) error {
		var err error
		text, err = rt.Fork(ctx, id)
		return err
	}, true)
	return text, err
}

// Clone makes a copy of the current session's path current.
func (h *Host) Clone(ctx context.Context) error {
	return h.withOwn(func(rt *Runtime) error { return rt.Clone(ctx) }, true)
}

// withOwn runs change on the current runtime when it is the host's own (not
// a sub-agent's shown), switches held off meanwhile; announce says the
// session changed under it and is announced again.
func (h *Host) withOwn(change func(*Runtime) error, announce bool) error {
	h.switchMu.Lock()
	defer h.switchMu.Unlock()
	h.mu.Lock()
	cur := h.current
	owned := h.owns(cur)
	h.mu.Unlock()
	if !owned {
		return errNotOwnSession
	}
	if err := change(cur); err != nil {
		return err
	}
	if announce {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.attach(cur)
	}
	return nil
}
