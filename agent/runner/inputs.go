package runner

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/persistence"
)

// inputs takes the user's inputs into the session: it checks one, saves it
// as a pending input before the agent sees it (a crash then loses nothing
// that was acknowledged), and hands it to the agent's queues; it takes
// queued items back, and it aborts the run on the user's behalf. It calls the agent's queue methods, the store's
// pending-input writes, the write side's contexts and, through
// inputSession, the session book; switching is the session book's swap, which
// keeps inputs out while the session changes.
type inputs struct {
	agent     *agent.Agent
	store     *persistence.Store
	writes    *writes
	log       *slog.Logger
	now       func() time.Time
	maxBytes  int
	switching *sync.RWMutex
	book      inputSession
	// expand turns an input into the message it sends (takeInput): a
	// skill's or template's, with what the UserPromptSubmit hooks add; an
	// error refuses the input.
	expand func(ctx context.Context, kind agent.QueueKind, text string) (string, error)
}

// inputSession is what inputs needs of the current session.
type inputSession interface {
	SessionID() string
	// ensureSession gives the session its row before its first input.
	ensureSession(ctx context.Context) (string, error)
	// noteTitle titles a session still untitled with its first input.
	noteTitle(text string)
}

// Prompt starts a run; it fails with agent.ErrBusy while one is active. The
// prompt is saved as a pending input first, so a crash before its message is
// stored does not lose it.
func (in *inputs) Prompt(ctx context.Context, text string, images ...agent.Content) error {
	in.switching.RLock()
	defer in.switching.RUnlock()
	it, err := in.savePending(ctx, agent.QueueSteer, text, images)
	if err != nil {
		return err
	}
	msg := agent.UserMessage(it.Text, it.Created)
	msg.Content = append(msg.Content, images...)
	msg.QueueItemID = it.ID
	if err := in.agent.PromptMessages(msg); err != nil {
		in.dropPending(ctx, it.ID)
		return err
	}
	return nil
}

// Steer queues steering while a run is active, else starts a run with it.
// It returns once the input is saved; queued says which happened.
func (in *inputs) Steer(ctx context.Context, text string, images ...agent.Content) (item agent.QueueItem, queued bool, err error) {
	return in.deliver(ctx, agent.QueueSteer, text, images)
}

// FollowUp queues a follow-up while a run is active, else starts a run with
// it. It returns once the input is saved.
func (in *inputs) FollowUp(ctx context.Context, text string, images ...agent.Content) (item agent.QueueItem, queued bool, err error) {
	return in.deliver(ctx, agent.QueueFollowUp, text, images)
}

// Submit hands the session an input of any kind — agent.QueueCollect and
// agent.QueueInterrupt beside steering and follow-ups: queued while a run is
// active (an interrupt aborts the run and starts the next one with itself),
// else it starts a run. It returns once the input is saved.
func (in *inputs) Submit(ctx context.Context, kind agent.QueueKind, text string, images ...agent.Content) (item agent.QueueItem, queued bool, err error) {
	if _, ok := agent.ParseQueueKind(string(kind)); !ok {
		return agent.QueueItem{}, false, fmt.Errorf("unknown input kind %q", kind)
	}
	return in.deliver(ctx, kind, text, images)
}

// MaxInputBytes is the largest input the runtime accepts.
func (in *inputs) MaxInputBytes() int { return in.maxBytes }

func (in *inputs) deliver(ctx context.Context, kind agent.QueueKind, text string, images []agent.Content) (agent.QueueItem, bool, error) {
	in.switching.RLock()
	defer in.switching.RUnlock()
	it, err := in.savePending(ctx, kind, text, images)
	if err != nil {
		return agent.QueueItem{}, false, err
	}
	it, queued := in.agent.Deliver(it)
	return it, queued, nil
}

// savePending makes an input durable before the agent sees it; the store
// retires it in the transaction that appends its message. The save runs
// within ctx and the runtime's input context: an input after Close or the
// quit signal is refused, as it always was (see scoped).
func (in *inputs) savePending(ctx context.Context, kind agent.QueueKind, typed string, images []agent.Content) (agent.QueueItem, error) {
	text := typed
	if in.expand != nil {
		var err error
		if text, err = in.expand(ctx, kind, typed); err != nil {
			return agent.QueueItem{}, err
		}
	}
	if err := checkInput(text, images, in.maxBytes); err != nil {
		return agent.QueueItem{}, err
	}
	if err := checkImages(func() agent.Model { return in.agent.State().Model }, images); err != nil {
		return agent.QueueItem{}, err
	}
	it := agent.QueueItem{ID: agent.NewQueueItemID(), Kind: kind, Text: text, Images: images, Created: in.now()}
	in.book.noteTitle(typed) // "/skill:pdf …", not the skill's body
	if in.store == nil {
		return it, nil
	}
	ctx, done := scoped(ctx, in.writes.inputCtx)
	defer done()
	sessionID, err := in.book.ensureSession(ctx)
	if err == nil {
		stored := it
		stored.Kind = storedKind(it.Kind)
		if err = in.store.AddPendingInput(ctx, sessionID, stored); err != nil {
			err = fmt.Errorf("saving the input: %w", err)
		}
	}
	if err = in.writes.givenUp(err); err != nil {
		in.log.Error("an input was refused: it could not be saved", "session", sessionID, "error", err)
	}
	return it, err
}

func (in *inputs) dropPending(ctx context.Context, ids ...string) {
	if in.store == nil {
		return
	}
	ctx, done := scoped(ctx, in.writes.ctx)
	defer done()
	sessionID := in.book.SessionID()
	for _, id := range ids {
		err := in.store.RemovePendingInput(ctx, sessionID, id)
		in.writes.saved("removing a pending input", err)
	}
}

// Dequeue takes queued items back: the one with id, or all when id is empty.
func (in *inputs) Dequeue(ctx context.Context, id string) ([]agent.QueueItem, error) {
	var items []agent.QueueItem
	if id == "" {
		items = in.agent.ClearQueues()
	} else {
		it, ok := in.agent.Dequeue(id)
		if !ok {
			return nil, fmt.Errorf("no queued item %q", id)
		}
		items = []agent.QueueItem{it}
	}
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = it.ID
	}
	in.dropPending(ctx, ids...)
	return items, nil
}

// DequeueIn is Dequeue, provided sessionID is still the current session:
// a front end that acted on one session never takes the items of another.
func (in *inputs) DequeueIn(ctx context.Context, sessionID, id string) ([]agent.QueueItem, error) {
	in.switching.RLock()
	defer in.switching.RUnlock()
	if current := in.book.SessionID(); current != sessionID {
		return nil, fmt.Errorf("session %s is not current any more (%s is)", sessionID, current)
	}
	return in.Dequeue(ctx, id)
}

// Abort aborts the active run on the user's behalf, if there is one.
func (in *inputs) Abort() { in.agent.Abort() }

// AbortWith aborts the active run, if any, recording reason (AbortQuit,
// AbortTimeout, AbortSignal) in its aborted marker and run record.
func (in *inputs) AbortWith(reason string) { in.agent.AbortWith(reason) }
