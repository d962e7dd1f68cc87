package runner

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// How a runtime stops. Every write of the runtime (the saver's, the
// ledger's, the lanes', the release of its session) runs with writeCtx, and
// saving an input with inputCtx, its child, so that a database another
// process keeps locked — each write would wait there for ~25 s before it
// failed — cannot hold a quit up:
//
//   - Close(ctx) gives the work already handed over until ctx ends, then
//     cancels writeCtx;
//   - Options.Quit (the quit signal) cancels inputCtx at once: an input
//     still being saved was never acknowledged, so it is refused, not lost;
//     the writes already handed over get quitWait (QuitWait) more.
//
// A write given up on fails like any other: it is logged and kept in
// State().PersistError, so that nothing is claimed as saved that was not;
// Close returns an *UnsavedError that counts, by session, what was never
// written (given up on, dropped, or kept for a retry that never worked),
// for the quit to say.

// errGivenUp is why the writes were cancelled, as their failures say.
var errGivenUp = errors.New("given up on: the runtime was quitting")

// startWrites makes the write contexts and starts watching Options.Quit.
func (r *Runtime) startWrites() {
	writes, cancelWrites := context.WithCancelCause(context.Background())
	inputs, cancelInputs := context.WithCancelCause(writes)
	r.writeCtx, r.cancelWrites = writes, func() { cancelWrites(errGivenUp) }
	r.inputCtx, r.cancelInputs = inputs, func() { cancelInputs(errGivenUp) }
	r.quitWait = QuitWait
	r.stopQuit = func() bool { return false }
	if r.opts.Quit != nil {
		r.stopQuit = context.AfterFunc(r.opts.Quit, func() {
			r.cancelInputs()
			time.AfterFunc(r.quitWait, r.cancelWrites)
		})
	}
}

// givenUp adds to the error of a write cancelled by a quit why it was.
func (r *Runtime) givenUp(err error) error {
	if err == nil || !errors.Is(err, context.Canceled) {
		return err
	}
	if cause := context.Cause(r.inputCtx); errors.Is(cause, errGivenUp) {
		return fmt.Errorf("%w (%w)", err, cause)
	}
	return err
}

// endWrites cancels every write: from now on they fail at once.
func (r *Runtime) endWrites() {
	r.stopQuit()
	r.cancelWrites()
}

// Close finishes the work already handed over — the sub-agents' answers,
// the saves, the ledger's records — until ctx ends, then takes the lanes out
// of the database, stops saving and releases the session. When ctx ends
// first (a database another process keeps locked), what is still pending is
// given up on at once: each failure is logged and kept in
// State().PersistError, the session's OS lock goes regardless, and Close
// returns ctx's error. What was never written is counted in an
// *UnsavedError, joined to the error returned. Later writes fail at once. Call it after the last run
// is idle and before closing the store.
func (r *Runtime) Close(ctx context.Context) error {
	stop := context.AfterFunc(ctx, r.cancelWrites)
	defer stop()
	r.subs.abortChildren(AbortQuit)
	r.subs.wait(ctx) // their answers are saved before saving stops
	err := r.saver.flush(ctx)
	r.waitBackground(ctx)
	r.stopLanePublisher(r.writeCtx)
	r.keeper.engines.close(ctx) // the feed first: no engine call goes on while the engines close
	r.saver.stop()
	select {
	case <-r.saver.done:
	case <-ctx.Done():
		if err == nil {
			err = ctx.Err()
		}
		// What is left fails at once, and is logged before Close returns
		// (main closes the log next).
		r.cancelWrites()
		<-r.saver.done
	}
	// Nothing writes the session any more: other processes may open it (a
	// sub-agent's, once it has answered, while its parent goes on).
	r.mu.Lock()
	claim := r.session.claim
	r.session.claim = nil
	r.mu.Unlock()
	r.release(r.writeCtx, claim, nil)
	r.endWrites()
	return errors.Join(err, r.notSaved())
}

// notSaved is the account of the writes never made, logged, or nil; the
// saver has stopped. A write kept for a retry is tried once more when the
// saver stops, so what is left could not be saved even then.
func (r *Runtime) notSaved() error {
	labels, last := r.saver.unsaved()
	account := unsavedAccount(labels, r.SessionID(), r.givenUp(last))
	if account == nil {
		return nil
	}
	r.log.Error(account.Error(), "session", r.SessionID(), "error", last)
	return account
}

// stopSaving undoes what New started, on its way out with an error.
func (r *Runtime) stopSaving() {
	r.endWrites()
	r.stopLanePublisher(r.writeCtx)
	r.keeper.engines.feed.stop()
	r.saver.stop()
	<-r.saver.done
}

// waitBackground waits (until ctx ends) for the background ledger writes,
// so that a success recorded after the last run is not cut off by Close.
func (r *Runtime) waitBackground(ctx context.Context) {
	done := make(chan struct{})
	go func() {
		r.profiles.wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
	}
}
