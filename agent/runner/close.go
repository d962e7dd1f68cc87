package runner

import (
	"context"
	"errors"
	"sync"
)

// How a runtime stops (Runtime.Close composes the parts' ends; the write
// side is writes.go). Every write of the runtime (the saver's, the
// ledger's, the lanes', the release of its session) runs with writes.ctx,
// and saving an input with writes.inputCtx, its child, so that a database
// another process keeps locked — each write would wait there for ~25 s
// before it failed — cannot hold a quit up:
//
//   - Close(ctx) gives the work already handed over until ctx ends, then
//     cancels writes.ctx;
//   - Options.Quit (the quit signal) cancels writes.inputCtx at once: an
//     input still being saved was never acknowledged, so it is refused, not
//     lost; the writes already handed over get writes.quitWait (QuitWait)
//     more.
//
// A write given up on fails like any other: it is logged and kept in
// State().PersistError, so that nothing is claimed as saved that was not;
// Close returns an *UnsavedError that counts, by session, what was never
// written (given up on, dropped, or kept for a retry that never worked),
// for the quit to say.

// Close finishes the work already handed over — the sub-agents' answers,
// the saves, the ledger's records — until ctx ends, then takes the lanes out
// of the database, stops saving and releases the session. When ctx ends
// first (a database another process keeps locked), what is still pending is
// given up on at once: each failure is logged and kept in
// State().PersistError, the session's OS lock goes regardless, and Close
// returns ctx's error. What was never written is counted in an
// *UnsavedError, joined to the error returned. Later writes fail at once.
// Call it after the last run is idle and before closing the store.
func (r *Runtime) Close(ctx context.Context) error {
	stop := context.AfterFunc(ctx, r.writes.cancel)
	defer stop()
	r.mcpDesk.unfollow()
	r.unwatchModels()
	r.sessionHooks.close(ctx)
	r.subs.abortChildren(AbortQuit)
	r.subs.wait(ctx) // their answers are saved before saving stops
	err := r.writes.flush(ctx)
	r.profiles.background.wait(ctx) // a success recorded after the last run is not cut off
	r.lanePub.stop(r.writes.ctx)
	r.keeper.engines.close(ctx) // the feed first: no engine call goes on while the engines close
	// What is left when ctx ends fails at once, and is logged before Close
	// returns (main closes the log next).
	if serr := r.writes.stop(ctx); err == nil {
		err = serr
	}
	// Nothing writes the session any more: other processes may open it (a
	// sub-agent's, once it has answered, while its parent goes on).
	r.mu.Lock()
	claim := r.session.claim
	r.session.claim = nil
	r.mu.Unlock()
	r.writes.release(r.writes.ctx, claim, nil)
	r.writes.end()
	return errors.Join(err, r.writes.notSaved(r.SessionID()))
}

// stopSaving undoes what New started, on its way out with an error.
func (r *Runtime) stopSaving() {
	r.writes.end()
	r.lanePub.stop(r.writes.ctx)
	r.keeper.engines.feed.stop()
	_ = r.writes.stop(context.Background()) // every write fails at once now
}

// waitOrDone waits for wg until ctx ends.
func waitOrDone(ctx context.Context, wg *sync.WaitGroup) {
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
	}
}
