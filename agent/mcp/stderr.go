package mcp

import (
	"bytes"
	"sync"
)

// stderrLines is how many of a server's last stderr lines a failure shows.
const stderrLines = 10

// maxLineBytes bounds one kept line: a server that writes megabytes without
// a newline costs no more than this.
const maxLineBytes = 512

// tail keeps the last lines a child wrote to stderr, for the report of its
// failure. It is the child's Stderr (an io.Writer the exec package copies
// into from its own goroutine) and is read from any goroutine.
type tail struct {
	mu      sync.Mutex
	lines   []string
	partial []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			t.partial = appendBounded(t.partial, p)
			break
		}
		t.partial = appendBounded(t.partial, p[:i])
		t.push(string(bytes.TrimRight(t.partial, "\r")))
		t.partial = t.partial[:0]
		p = p[i+1:]
	}
	return n, nil
}

func appendBounded(dst, p []byte) []byte {
	if room := maxLineBytes - len(dst); room < len(p) {
		p = p[:max(room, 0)]
	}
	return append(dst, p...)
}

func (t *tail) push(line string) {
	if line == "" {
		return
	}
	t.lines = append(t.lines, line)
	if len(t.lines) > stderrLines {
		t.lines = t.lines[len(t.lines)-stderrLines:]
	}
}

// last returns the kept lines, the unfinished one last.
func (t *tail) last() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]string(nil), t.lines...)
	if len(t.partial) > 0 {
		out = append(out, string(t.partial))
	}
	if len(out) > stderrLines {
		out = out[len(out)-stderrLines:]
	}
	return out
}
