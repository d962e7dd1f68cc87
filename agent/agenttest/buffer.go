package agenttest

import (
	"bytes"
	"sync"
)

// Buffer is a bytes.Buffer safe for a writer on another goroutine (a
// program's screen, a runtime's log) and the test that reads it. The zero
// Buffer is ready to use.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
