package runner

import (
	"context"
	"errors"
	"fmt"

	"github.com/steer-tui/steer/persistence"
	"github.com/steer-tui/steer/persistence/checkpoint"
)

// SessionRewind is one saved session held for `steer rewind`: its claim
// keeps every other steer from running it (and so any tool from running in
// it) until Close.
type SessionRewind struct {
	w     rewinder
	claim *persistence.Claim
}

// OpenRewind claims session id and opens the checkpoints of its workspace;
// a session another steer has open is refused (rewind it there).
func (v *StateView) OpenRewind(ctx context.Context, id string) (*SessionRewind, error) {
	ss, err := v.store.Session(ctx, id)
	if errors.Is(err, persistence.ErrNotFound) {
		return nil, ErrNoSavedSession
	}
	if err != nil {
		return nil, err
	}
	claim, err := v.store.ClaimSession(ctx, id)
	if err != nil {
		return nil, err
	}
	shadow, err := checkpoint.Open(v.store.Dir(), ss.Workspace, checkpoint.Options{})
	if err != nil && !errors.Is(err, checkpoint.ErrNoGit) {
		_ = claim.Release(ctx)
		return nil, fmt.Errorf("the checkpoints of %s: %w", ss.Workspace, err)
	}
	return &SessionRewind{w: rewinder{store: v.store, shadow: shadow, session: id}, claim: claim}, nil
}

// Turns is the branch's turns newest first (Runtime.RewindTurns).
func (s *SessionRewind) Turns(ctx context.Context) ([]RewindTurn, error) { return s.w.Turns(ctx) }

// Preview is what a rewind would do (Runtime.PreviewRewind).
func (s *SessionRewind) Preview(ctx context.Context, turn string, scope RewindScope) (RewindPreview, error) {
	return s.w.Preview(ctx, turn, scope)
}

// Rewind carries out p (Runtime.Rewind).
func (s *SessionRewind) Rewind(ctx context.Context, p RewindPreview, o RewindOptions) (RewindResult, error) {
	return s.w.Rewind(ctx, p, o)
}

// Redo undoes the last rewind (Runtime.Redo).
func (s *SessionRewind) Redo(ctx context.Context) (RewindResult, error) { return s.w.Redo(ctx) }

// Close gives the session up.
func (s *SessionRewind) Close(ctx context.Context) error { return s.claim.Release(ctx) }

// WorkspaceOf is saved session id's workspace, or ErrNoSavedSession.
func (v *StateView) WorkspaceOf(ctx context.Context, id string) (string, error) {
	ss, err := v.store.Session(ctx, id)
	if errors.Is(err, persistence.ErrNotFound) {
		return "", ErrNoSavedSession
	}
	return ss.Workspace, err
}

// InterruptedRewind reports workspace's interrupted restore, if any
// (Runtime.InterruptedRewind).
func (v *StateView) InterruptedRewind(workspace string) (InterruptedRewind, bool, error) {
	c, err := v.checkpointsOf(workspace)
	if err != nil {
		return InterruptedRewind{}, false, err
	}
	return interruptedIn(c)
}

// ResumeRewind finishes or rolls back workspace's interrupted restore,
// holding its session meanwhile so that no steer runs a tool in it.
func (v *StateView) ResumeRewind(ctx context.Context, workspace string, finish bool) error {
	c, err := v.checkpointsOf(workspace)
	if err != nil {
		return err
	}
	in, ok, err := interruptedIn(c)
	if !ok || err != nil {
		return err
	}
	claim, err := v.store.ClaimSession(ctx, in.Session)
	if err != nil && !errors.Is(err, persistence.ErrNotFound) { // a session deleted since: nobody runs it
		return err
	}
	if claim != nil {
		defer func() { _ = claim.Release(context.WithoutCancel(ctx)) }()
	}
	return c.shadow.Resume(ctx, finish)
}

// checkpointsOf opens workspace's checkpoints; without git it has none.
func (v *StateView) checkpointsOf(workspace string) (*checkpoints, error) {
	shadow, err := checkpoint.Open(v.store.Dir(), workspace, checkpoint.Options{})
	if errors.Is(err, checkpoint.ErrNoGit) {
		return &checkpoints{}, nil
	}
	if err != nil {
		return nil, err
	}
	return &checkpoints{shadow: shadow}, nil
}
