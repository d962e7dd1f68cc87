package runner

import (
	"slices"
	"sync"

	"github.com/steer-tui/steer/agent"
)

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
