package runner

import (
	"context"
	"sync"

	"github.com/steer-tui/steer/agent"
)

// saveBarrier holds a tool call back until the transcript that asked for it
// is saved. Saving runs behind the event path (see saver), so without it a
// command could run, and a crash follow, before the record of the input and
// the call behind it: on resume the input would still be pending and run
// again. The persist subscriber notes each assistant message's tool calls as
// it hands the message to the saver; a call waits for that, then for the
// saver to finish what it was handed (writes.awaitSaved). It calls nothing.
type saveBarrier struct {
	mu sync.Mutex
	// handed counts, by id, the calls whose message the saver has been
	// handed and that have not run yet: a provider may give two calls of
	// one run the same id, and each must wait for its own message.
	handed  map[string]int
	changed chan struct{} // closed, and replaced, when handed grows
}

func newSaveBarrier() *saveBarrier {
	return &saveBarrier{handed: map[string]int{}, changed: make(chan struct{})}
}

// note records the tool calls of msg, just handed to the saver.
func (b *saveBarrier) note(msg agent.Message) {
	calls := msg.ToolCalls()
	if len(calls) == 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, c := range calls {
		b.handed[c.ID]++
	}
	close(b.changed)
	b.changed = make(chan struct{})
}

// reset forgets the calls of a run that ended.
func (b *saveBarrier) reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	clear(b.handed)
}

// wait returns once the message of call id has been handed to the saver,
// taking that call off the count, or with ctx's error.
func (b *saveBarrier) wait(ctx context.Context, id string) error {
	for {
		b.mu.Lock()
		handed, changed := b.handed[id] > 0, b.changed
		if handed {
			if b.handed[id]--; b.handed[id] == 0 {
				delete(b.handed, id)
			}
		}
		b.mu.Unlock()
		if handed {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
