package runner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/persistence"
)

// writes is a runtime's write side: the saver that runs the event path's
// writes in order, the barrier a tool call waits on for its message to be
// saved, the contexts that bound every write (ctx) and the saving of an
// input (inputCtx, its child) so that no save can hang a quit (see
// close.go), and the account of failed saves that State().PersistError
// shows. It calls nothing of the runtime but what writeDeps gives it.
type writes struct {
	// durable says there is a store: the saver writes, and a tool call
	// waits for its message to be saved.
	durable bool
	saver   *saver
	barrier *saveBarrier
	deps    writeDeps

	ctx          context.Context
	cancel       context.CancelFunc // gives up on every write, with errGivenUp
	inputCtx     context.Context
	cancelInputs context.CancelFunc
	stopQuit     func() bool // stops watching the quit signal
	// quitWait is what the writes handed over get after the quit signal;
	// tests set it before the signal.
	quitWait time.Duration

	mu         sync.Mutex
	persistErr string            // the latest save failure, while any persists
	failing    map[string]string // failing kinds of write → their error
}

// writeDeps is what the write side reads of the runtime: the current
// session (for the log) and the notices it announces failures with.
type writeDeps struct {
	log       *slog.Logger
	sessionID func() string
	notify    func(kind NoticeKind, text string)
}

// errGivenUp is why the writes were cancelled, as their failures say.
var errGivenUp = errors.New("given up on: the runtime was quitting")

// newWrites makes the write contexts; the saver starts with start.
func newWrites(durable bool, deps writeDeps) *writes {
	all, cancelAll := context.WithCancelCause(context.Background())
	inputs, cancelInputs := context.WithCancelCause(all)
	return &writes{durable: durable, saver: newSaver(), barrier: newSaveBarrier(), deps: deps,
		ctx: all, cancel: func() { cancelAll(errGivenUp) },
		inputCtx: inputs, cancelInputs: func() { cancelInputs(errGivenUp) },
		quitWait: QuitWait, stopQuit: func() bool { return false }}
}

// start starts the saver, its holds reported as failures (holding), and
// watches quit (nil: only end gives up on the writes).
func (w *writes) start(quit context.Context) {
	if quit != nil {
		w.stopQuit = context.AfterFunc(quit, func() {
			w.cancelInputs()
			time.AfterFunc(w.quitWait, w.cancel)
		})
	}
	w.saver.start(w.ctx, w.holding)
}

// add hands a job to the saver; it never blocks.
func (w *writes) add(job saveJob) { w.saver.add(job) }

// handed hands the job that saves ev to the saver and tells the barrier:
// the tool calls of a message wait for it, and a run's end forgets them.
func (w *writes) handed(job saveJob, ev agent.Event) {
	w.saver.add(job)
	switch e := ev.(type) {
	case agent.MessageEnd:
		w.barrier.note(e.Message)
	case agent.AgentEnd:
		w.barrier.reset()
	}
}

// flush waits for the jobs handed over so far (see saver.flush).
func (w *writes) flush(ctx context.Context) error { return w.saver.flush(ctx) }

// holdingWrites is an error while writes are kept for a retry (see
// saver.holdingWrites).
func (w *writes) holdingWrites(current string) error { return w.saver.holdingWrites(current) }

// awaitSaved waits until the assistant message that made call id is saved
// (or its save has failed, which is reported as any failed save is).
func (w *writes) awaitSaved(ctx context.Context, id string) error {
	if !w.durable {
		return nil
	}
	if err := w.barrier.wait(ctx, id); err != nil {
		return err
	}
	return w.saver.flush(ctx)
}

// scoped is the context a facade write runs in: the caller's ctx, ended
// by base (w.ctx, or w.inputCtx for an input) too. A base already done is
// returned as it is, checked first and at once: the merge notices base's
// end only on a goroutine of its own, so without this check an input
// typed after Close could still be saved and accepted. A ctx that never
// ends adds nothing, and base is used alone, as before ctx was taken.
// done releases the merge.
func scoped(ctx, base context.Context) (_ context.Context, done func()) {
	if base.Err() != nil || ctx == base || ctx.Done() == nil {
		return base, func() {}
	}
	merged, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(base, func() { cancel(context.Cause(base)) })
	return merged, func() { stop(); cancel(nil) }
}

// givenUp adds to the error of a write cancelled by a quit why it was.
func (w *writes) givenUp(err error) error {
	if err == nil || !errors.Is(err, context.Canceled) {
		return err
	}
	if cause := context.Cause(w.inputCtx); errors.Is(cause, errGivenUp) {
		return fmt.Errorf("%w (%w)", err, cause)
	}
	return err
}

// end cancels every write: from now on they fail at once.
func (w *writes) end() {
	w.stopQuit()
	w.cancel()
}

// stop stops the saver once what it holds is written, or tried once more;
// when ctx ends first, what is left is given up on (and logged) before
// stop returns ctx's error.
func (w *writes) stop(ctx context.Context) error {
	w.saver.stop()
	select {
	case <-w.saver.done:
		return nil
	case <-ctx.Done():
		w.cancel()
		<-w.saver.done
		return ctx.Err()
	}
}

// notSaved is the account of the writes never made, logged, or nil; the
// saver has stopped. A write kept for a retry is tried once more when the
// saver stops, so what is left could not be saved even then.
func (w *writes) notSaved(current string) error {
	labels, last := w.saver.unsaved()
	account := unsavedAccount(labels, current, w.givenUp(last))
	if account == nil {
		return nil
	}
	w.deps.log.Error(account.Error(), "session", current, "error", last)
	return account
}

// release gives up the claim on a session left behind, unless it is the one
// kept (claiming a held session returns its claim). Its record in the
// database is cleared within ctx; the OS lock goes regardless, so a failure
// (logged) keeps nobody from the session.
func (w *writes) release(ctx context.Context, left, kept *persistence.Claim) {
	if left == nil || left == kept {
		return
	}
	if err := w.givenUp(left.Release(ctx)); err != nil {
		w.deps.log.Warn("releasing a session failed", "session", left.SessionID(), "error", err)
	}
}
