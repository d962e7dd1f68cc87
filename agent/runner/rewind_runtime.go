package runner

import (
	"context"
	"errors"
	"fmt"

	"github.com/steer-tui/steer/agent"
)

// The rewind facade of a runtime (rewind.go): the TUI's /rewind and /redo
// and the rpc's rewind. Each refuses while a run is active — a restore
// never runs beside a tool — and holds the session's swap lock meanwhile,
// so that no input starts one; a rewind of the conversation loads the
// session again, as NavigateTree does.

// ErrRewindBusy is the answer to a rewind or a redo while a run is active;
// it wraps agent.ErrBusy.
var ErrRewindBusy = fmt.Errorf("cannot rewind while a run is active: abort it or wait for it to end: %w", agent.ErrBusy)

// rewinder is the current session's, once it is saved.
func (r *Runtime) rewinder(ctx context.Context) (rewinder, error) {
	id, created := r.row()
	if !created || r.store == nil {
		return rewinder{}, errors.New("the session has no saved turns yet")
	}
	if err := r.writes.flush(ctx); err != nil {
		return rewinder{}, err
	}
	return rewinder{store: r.store, shadow: r.checkpoints.shadow, session: id}, nil
}

// RewindTurns is the current branch's turns, newest first, each with the
// files it changed.
func (r *Runtime) RewindTurns(ctx context.Context) ([]RewindTurn, error) {
	w, err := r.rewinder(ctx)
	if err != nil {
		return nil, err
	}
	return w.Turns(ctx)
}

// PreviewRewind is what rewinding scope to before turn would do; turn is
// the id of the turn's user message or its 1-based index (see
// RewindTurn).
func (r *Runtime) PreviewRewind(ctx context.Context, turn string, scope RewindScope) (RewindPreview, error) {
	w, err := r.rewinder(ctx)
	if err != nil {
		return RewindPreview{}, err
	}
	return w.Preview(ctx, turn, scope)
}

// Rewind carries out preview p; it fails with ErrRewindBusy while a run is
// active, and when the workspace changed since the preview.
func (r *Runtime) Rewind(ctx context.Context, p RewindPreview, o RewindOptions) (RewindResult, error) {
	return r.rewindHeld(ctx, func(w rewinder) (RewindResult, error) { return w.Rewind(ctx, p, o) })
}

// Redo undoes the last rewind (see rewinder.Redo); ErrNothingToRedo when
// there is none to undo.
func (r *Runtime) Redo(ctx context.Context) (RewindResult, error) {
	return r.rewindHeld(ctx, func(w rewinder) (RewindResult, error) { return w.Redo(ctx) })
}

// rewindHeld runs change with inputs held off and no run active, then
// loads the session again: its leaf moved, or a rewind entry was added.
func (r *Runtime) rewindHeld(ctx context.Context, change func(rewinder) (RewindResult, error)) (RewindResult, error) {
	r.swap.Lock()
	defer r.swap.Unlock()
	if r.agent.State().Running {
		return RewindResult{}, ErrRewindBusy
	}
	w, err := r.rewinder(ctx)
	if err != nil {
		return RewindResult{}, err
	}
	res, err := change(w)
	if err != nil {
		return RewindResult{}, err
	}
	r.mu.Lock()
	claim := r.session.claim
	r.mu.Unlock()
	return res, r.loadSession(ctx, w.session, claim)
}

// InterruptedRewind is a restore of the workspace that steer did not
// finish (it died in it), which ResumeRewind finishes or rolls back; ok is
// false when there is none. Until then the workspace may be half restored,
// and mutating tools are refused.
type InterruptedRewind struct {
	Session string `json:"session"`
	Files   int    `json:"files"`
}

// InterruptedRewind reports the workspace's interrupted restore, if any.
func (r *Runtime) InterruptedRewind() (InterruptedRewind, bool, error) {
	return interruptedIn(r.checkpoints)
}

// ResumeRewind finishes (finish) or rolls back the workspace's interrupted
// restore; it fails while a run is active.
func (r *Runtime) ResumeRewind(ctx context.Context, finish bool) error {
	r.swap.Lock()
	defer r.swap.Unlock()
	if r.agent.State().Running {
		return ErrRewindBusy
	}
	if r.checkpoints.shadow == nil {
		return errNoCheckpoints
	}
	return r.checkpoints.shadow.Resume(ctx, finish)
}

func interruptedIn(c *checkpoints) (InterruptedRewind, bool, error) {
	if c.shadow == nil {
		return InterruptedRewind{}, false, nil
	}
	in, ok, err := c.shadow.Interrupted()
	return InterruptedRewind{Session: in.Session, Files: in.Files}, ok, err
}

// interruptedGuard is the error a mutating tool fails with while the
// workspace has an interrupted restore: it may be half restored, and a
// checkpoint or a change now would build on that.
func interruptedGuard(c *checkpoints) error {
	in, ok, err := interruptedIn(c)
	switch {
	case err != nil:
		return fmt.Errorf("the workspace's restore journal cannot be read, so no tool changes it: %w", err)
	case ok:
		return fmt.Errorf("a rewind of session %s was cut short (%d files): no tool changes the workspace until "+
			"'steer rewind --session %s --resume finish' (or rollback) completes it", in.Session, in.Files, in.Session)
	}
	return nil
}
