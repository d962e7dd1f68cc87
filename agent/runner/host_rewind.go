package runner

import "context"

// The rewind facade for the TUI (rewind_runtime.go), on the current
// session when it is the host's own.

// RewindTurns is the current session's turns, newest first.
func (h *Host) RewindTurns(ctx context.Context) ([]RewindTurn, error) {
	return h.Current().RewindTurns(ctx)
}

// PreviewRewind is what a rewind of the current session would do.
func (h *Host) PreviewRewind(ctx context.Context, turn string, scope RewindScope) (RewindPreview, error) {
	return h.Current().PreviewRewind(ctx, turn, scope)
}

// Rewind carries out p on the current session and announces it again.
func (h *Host) Rewind(ctx context.Context, p RewindPreview, o RewindOptions) (RewindResult, error) {
	var res RewindResult
	err := h.withOwn(func(rt *Runtime) error {
		var err error
		res, err = rt.Rewind(ctx, p, o)
		return err
	}, true)
	return res, err
}

// Redo undoes the current session's last rewind and announces it again.
func (h *Host) Redo(ctx context.Context) (RewindResult, error) {
	var res RewindResult
	err := h.withOwn(func(rt *Runtime) error {
		var err error
		res, err = rt.Redo(ctx)
		return err
	}, true)
	return res, err
}

// InterruptedRewind is the workspace's restore that steer died in, if any.
func (h *Host) InterruptedRewind() (InterruptedRewind, bool, error) {
	return h.Current().InterruptedRewind()
}

// ResumeRewind finishes (finish) or rolls back the interrupted restore.
func (h *Host) ResumeRewind(ctx context.Context, finish bool) error {
	return h.Current().ResumeRewind(ctx, finish)
}
