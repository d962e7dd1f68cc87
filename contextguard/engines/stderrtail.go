package engines

import (
	"bytes"
	"strings"
	"sync"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

// How much of an engine's stderr a quarantine quotes: the last lines, which
// are where a traceback or a "missing file" says what went wrong. The bound
// keeps a record and a notice to one readable line.
const (
	tailLines = 5
	tailBytes = 1024
	// tailSep joins the lines quoted, so that the quote stays one line.
	tailSep = " | "
)

// StderrTailer is an engine that keeps the end of what its program wrote
// on stderr; the Guard quotes it in the quarantine it records.
type StderrTailer interface {
	// StderrTail is the last lines written, sanitised and joined into one
	// line of at most about tailBytes; "" when nothing was written.
	StderrTail() string
}

// stderrTail keeps the last tailLines lines (at most tailBytes each) of
// what is written to it. It is safe for concurrent use.
type stderrTail struct {
	mu      sync.Mutex
	lines   []string
	partial []byte
	cut     bool // partial lost its start
}

// Write keeps the end of p; it never fails.
func (t *stderrTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	rest := p
	for {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			break
		}
		t.push(append(t.partial, rest[:i]...), t.cut)
		t.partial, t.cut, rest = nil, false, rest[i+1:]
	}
	whole := append(t.partial, rest...)
	end := lastBytes(whole, tailBytes)
	// A copy: the end of a large write must not pin all of it.
	t.partial, t.cut = append([]byte(nil), end...), t.cut || len(end) < len(whole)
	return len(p), nil
}

// push adds a whole line (cut: its start was lost already), dropping blank
// ones and the oldest beyond tailLines.
func (t *stderrTail) push(line []byte, cut bool) {
	end := lastBytes(line, tailBytes)
	s := sanitizeLine(string(end))
	if s == "" {
		return
	}
	if cut || len(end) < len(line) {
		s = "…" + s
	}
	t.lines = append(t.lines, s)
	if len(t.lines) > tailLines {
		t.lines = append(t.lines[:0], t.lines[len(t.lines)-tailLines:]...)
	}
}

// String is the tail as StderrTail says.
func (t *stderrTail) String() string {
	t.mu.Lock()
	lines := append([]string(nil), t.lines...)
	if s := sanitizeLine(string(t.partial)); s != "" {
		if t.cut {
			s = "…" + s
		}
		lines = append(lines, s)
	}
	t.mu.Unlock()
	if len(lines) > tailLines {
		lines = lines[len(lines)-tailLines:]
	}
	out := strings.Join(lines, tailSep)
	if len(out) > tailBytes {
		out = "…" + string(lastBytes([]byte(out), tailBytes))
	}
	return out
}

// lastBytes is the end of b of at most n bytes, starting on a rune.
func lastBytes(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	cut := len(b) - n
	for cut < len(b) && b[cut]&0xC0 == 0x80 {
		cut++
	}
	return b[cut:]
}

// sanitizeLine is line without terminal escape sequences, control
// characters or bidi overrides (a tab becomes a space), trimmed: it is
// printed on the user's terminal.
func sanitizeLine(line string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case r == unicode.ReplacementChar, unicode.IsControl(r), unicode.Is(unicode.Bidi_Control, r):
			return -1
		}
		return r
	}, ansi.Strip(line)))
}
