package lsp

import (
	"bytes"
	"sync"
)

// stderrKept is how many of a server's last stderr lines are kept for the
// report of its failure.
const stderrKept = 10

// maxLineBytes bounds one kept line: a server that writes megabytes
// without a newline costs no more than this.
const maxLineBytes = 512

// tail keeps the last lines a server wrote to stderr. It is the child's
// Stderr (the exec package writes to it from its own goroutine) and is read
// from any goroutine.
type tail struct {
	mu      sync.Mutex
	lines   []string
	partial []byte
	// first is the first line written, total how many were.
	first string
	total int
}

func (t *tail) Write(p []byte) (int, error) {
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
			t.lines = t.lines[max(len(t.lines)-stderrKept, 0):]
		}
		t.partial, p = t.partial[:0], rest
	}
}

// last returns up to n of the kept lines, the unfinished one last.
func (t *tail) last(n int) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lastLocked(n)
}

// brief is at most n lines (n ≥ 2) for a short report: the first line
// written, where a failing program usually says what is wrong (a stack
// trace follows it), "…" when lines were skipped, and the last ones.
func (t *tail) brief(n int) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	last := t.lastLocked(n)
	if t.total <= n || len(last) < n {
		return last
	}
	return append([]string{t.first, "…"}, last[len(last)-(n-2):]...)
}

func (t *tail) lastLocked(n int) []string {
	out := append([]string(nil), t.lines...)
	if len(t.partial) > 0 {
		out = append(out, string(t.partial))
	}
	return out[max(len(out)-n, 0):]
}
