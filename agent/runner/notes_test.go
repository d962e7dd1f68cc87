package runner

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// Helpers the runner's tests share.

// noteRecorder keeps the annotations a runtime's subscribers hear.
type noteRecorder struct {
	mu    sync.Mutex
	notes []agent.Annotation
}

// recordNotes subscribes a recorder to rt.
func recordNotes(rt *Runtime) *noteRecorder {
	rec := &noteRecorder{}
	rt.Subscribe(func(ev agent.Event) {
		if a, ok := ev.(agent.Annotation); ok {
			rec.mu.Lock()
			rec.notes = append(rec.notes, a)
			rec.mu.Unlock()
		}
	})
	return rec
}

// all is what it heard so far.
func (rec *noteRecorder) all() []agent.Annotation {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return slices.Clone(rec.notes)
}

// stopOnCleanup aborts rt's run and closes it when the test ends (before
// its temporary directories go).
func stopOnCleanup(t *testing.T, rt *Runtime) {
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		rt.Abort()
		_ = rt.WaitForIdle(ctx)
		_ = rt.Close(ctx)
	})
}
