package childproc

import (
	"bytes"
	"sync"
)

// TailLines is how many of a child's last stderr lines a Tail keeps.
const TailLines = 10

// maxLineBytes bounds one kept line: a child that writes megabytes
// without a newline costs no more than this.
const maxLineBytes = 512

// Tail keeps the last lines a child wrote to stderr, and its first. It is
// the child's Stderr (the exec package writes to it from its own
// goroutine) and is read from any goroutine. The zero Tail is ready.
type Tail struct {
	mu      sync.Mutex
	lines   []string
	partial []byte
	// first is the first line written, total how many were.
	first string
	total int
}

func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	for {
		line, rest, found := bytes.Cut(p, []byte{'\n'})
		t.partial = append(t.partial, line[:min(len(line), max(maxLineBytes-len(t.partial), 0))]...)
		if !found {
			return n, nil
		}
		if l := string(bytes.TrimRight(t.partial, "\r")); l != "" {
			if t.total == 0 {
				t.first = l
			}
			t.total++
			t.lines = append(t.lines, l)
			t.lines = t.lines[max(len(t.lines)-TailLines, 0):]
		}
		t.partial, p = t.partial[:0], rest
	}
}

// Last returns up to n of the kept lines, the unfinished one last.
func (t *Tail) Last(n int) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lastLocked(n)
}

// Brief is at most n lines (n ≥ 2) for a short report: the first line
// written, where a failing program usually says what is wrong (a stack
// trace follows it), "…" when lines were skipped, and the last ones.
func (t *Tail) Brief(n int) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	last := t.lastLocked(n)
	if t.total <= n || len(last) < n {
		return last
	}
	return append([]string{t.first, "…"}, last[len(last)-(n-2):]...)
}

func (t *Tail) lastLocked(n int) []string {
	out := append([]string(nil), t.lines...)
	if len(t.partial) > 0 {
		out = append(out, string(t.partial))
	}
	return out[max(len(out)-n, 0):]
}
