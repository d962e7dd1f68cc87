package runner

import (
	"fmt"
	"slices"
	"sync"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner/mention"
)

// fileIndexes are the host's @-mention indexes, one per workspace a
// session of it worked in, each walked once and kept until Close: a switch
// back to a workspace finds its index ready. It calls only workspace.
type fileIndexes struct {
	workspace func() string
	mu        sync.Mutex
	byRoot    map[string]*mention.Index
	closed    bool
}

// FileIndex returns the index of the current session's workspace, its walk
// begun; after Close, an index that never walks.
func (f *fileIndexes) FileIndex() *mention.Index {
	root := f.workspace()
	f.mu.Lock()
	defer f.mu.Unlock()
	ix := f.byRoot[root]
	if ix == nil {
		ix = mention.New(root)
		if f.closed {
			ix.Close()
			return ix
		}
		if f.byRoot == nil {
			f.byRoot = map[string]*mention.Index{}
		}
		f.byRoot[root] = ix
	}
	ix.Start()
	return ix
}

// closeAll stops the walks still going.
func (f *fileIndexes) closeAll() {
	f.mu.Lock()
	f.closed = true
	all := f.byRoot
	f.byRoot = nil
	f.mu.Unlock()
	for _, ix := range all {
		ix.Close()
	}
}

// ImagesRefusedError refuses an input with images for a model that takes
// none (agent.Model.Input without "image"); nothing of it is stored or
// queued.
type ImagesRefusedError struct{ Model agent.Model }

func (e *ImagesRefusedError) Error() string {
	return fmt.Sprintf("%s takes no images; pick a model that does with /model, or remove the image", e.Model.ID)
}

// checkImages refuses images for a model without image input; model is
// asked only when there are images (it copies the agent's state).
func checkImages(model func() agent.Model, blocks []agent.Content) error {
	for _, b := range blocks {
		if b.Type != agent.ContentImage {
			continue
		}
		if m := model(); len(m.Input) > 0 && !slices.Contains(m.Input, "image") {
			return &ImagesRefusedError{Model: m}
		}
		return nil
	}
	return nil
}
