package mention

import (
	"context"
	"io/fs"
	"strings"
	"sync"

	"github.com/steer-tui/steer/agent/tools"
)

// flushEvery is how many entries the walk collects before it publishes
// them: the lock is taken once per batch, not per file, and a query sees
// new entries at most a batch late.
const flushEvery = 512

// Index is the workspace's files and directories, found by a walk in the
// background. Its methods may be called from any goroutine.
type Index struct {
	root   string
	start  sync.Once
	cancel context.CancelFunc
	walked chan struct{} // closed when the walk ends

	mu      sync.RWMutex
	entries []string // in walk order; a directory ends in "/"
	done    bool

	lastMu sync.Mutex
	last   lastQuery // the previous fuzzy query, for narrowing
}

// New returns the index of the workspace at root; the walk starts with the
// first Start or Query.
func New(root string) *Index {
	return &Index{root: root, walked: make(chan struct{})}
}

// Root is the workspace the index walks.
func (ix *Index) Root() string { return ix.root }

// Start begins the walk in the background, once; it returns at once.
func (ix *Index) Start() {
	ix.start.Do(func() {
		ctx, cancel := context.WithCancel(context.Background())
		ix.cancel = cancel
		go ix.walk(ctx)
	})
}

// Close stops the walk and waits for it to end. The index still answers
// from what it found.
func (ix *Index) Close() {
	ix.start.Do(func() { close(ix.walked) }) // never started: nothing to stop
	if ix.cancel != nil {
		ix.cancel()
	}
	<-ix.walked
}

// Wait returns once the walk has ended, or with ctx's error.
func (ix *Index) Wait(ctx context.Context) error {
	ix.Start()
	select {
	case <-ix.walked:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (ix *Index) walk(ctx context.Context) {
	defer close(ix.walked)
	batch := make([]string, 0, flushEvery)
	flush := func(done bool) {
		ix.mu.Lock()
		ix.entries = append(ix.entries, batch...)
		ix.done = done
		ix.mu.Unlock()
		batch = batch[:0]
	}
	// An error ends the walk where it stands: what was found is still
	// offered, and a cancelled walk is Close's.
	_ = tools.Walk(ctx, ix.root, ix.root, func(rel string, d fs.DirEntry) error {
		if d.IsDir() {
			rel += "/"
		}
		batch = append(batch, rel)
		if len(batch) == flushEvery {
			flush(false)
		}
		return nil
	})
	flush(true)
}

// snapshot returns the entries found so far and whether the walk is over.
// The slice is only ever appended to, so its prefix may be read without
// the lock.
func (ix *Index) snapshot() ([]string, bool) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.entries[:len(ix.entries):len(ix.entries)], ix.done
}

// IsDir reports whether path names a directory of the workspace.
func IsDir(path string) bool { return strings.HasSuffix(path, "/") }
