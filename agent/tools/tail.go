package tools

import (
	"bytes"
	"fmt"
	"strings"
	"sync"

	"github.com/steer-tui/steer/agent/humanize"
)

// tailBuffer is an io.Writer that keeps only the last maxBytes of what is
// written to it, so a command printing gigabytes costs a bounded amount of
// memory, while counting every line. It is safe for concurrent use.
type tailBuffer struct {
	mu    sync.Mutex
	buf   []byte // the tail; grows to 2*maxBytes, then is cut back to keepBytes
	total int64  // bytes written
	lines int    // newlines written
	last  byte   // the last byte written

	// changed receives a token after each write; it holds at most one, so
	// writes never block on it.
	changed chan struct{}
}

// keepBytes is what a tailBuffer keeps: the shown bytes and the one before
// them, which tells whether the first shown line is whole.
const keepBytes = maxBytes + 1

func newTailBuffer() *tailBuffer {
	return &tailBuffer{changed: make(chan struct{}, 1)}
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	b.mu.Lock()
	b.total += int64(len(p))
	b.lines += bytes.Count(p, []byte{'\n'})
	b.last = p[len(p)-1]
	if len(p) >= keepBytes {
		b.buf = append(b.buf[:0], p[len(p)-keepBytes:]...)
	} else {
		b.buf = append(b.buf, p...)
		if len(b.buf) > 2*maxBytes {
			b.buf = b.buf[:copy(b.buf, b.buf[len(b.buf)-keepBytes:])]
		}
	}
	b.mu.Unlock()
	select {
	case b.changed <- struct{}{}:
	default:
	}
	return len(p), nil
}

// tail is what a tailBuffer shows: its last lines within the caps.
type tail struct {
	text       string // valid UTF-8, without a final newline
	shown      int    // lines in text
	total      int    // lines written
	truncated  bool   // text leaves some of the output out
	totalBytes int64
	// tailEndsAt is where text ends in the output: totalBytes, less the
	// final line end text leaves off.
	tailEndsAt int64
	// mended says that text is not the output verbatim: invalid UTF-8 in it
	// was replaced.
	mended bool
}

// snapshot returns the last maxLines lines within maxBytes of the output.
func (b *tailBuffer) snapshot() tail {
	b.mu.Lock()
	data := bytes.Clone(b.buf[max(len(b.buf)-maxBytes, 0):])
	t := tail{total: b.lines, totalBytes: b.total, truncated: int64(len(data)) < b.total}
	wholeFirstLine := !t.truncated || b.buf[len(b.buf)-len(data)-1] == '\n'
	if b.total > 0 && b.last != '\n' {
		t.total++
	}
	b.mu.Unlock()

	if !wholeFirstLine {
		// The byte cap cut a line: drop its end, unless the tail is all one
		// huge line.
		if i := bytes.IndexByte(data, '\n'); i >= 0 && i < len(data)-1 {
			data = data[i+1:]
		} else {
			data = trimPartialRune(data)
		}
	}
	t.tailEndsAt = t.totalBytes
	if bytes.HasSuffix(data, []byte{'\n'}) {
		data, t.tailEndsAt = data[:len(data)-1], t.totalBytes-1
	}
	if bytes.Count(data, []byte{'\n'}) >= maxLines {
		i := len(data)
		for range maxLines {
			i = bytes.LastIndexByte(data[:i], '\n')
		}
		data, t.truncated = data[i+1:], true
	}
	if len(data) > 0 {
		t.shown = bytes.Count(data, []byte{'\n'}) + 1
	}
	t.text = strings.ToValidUTF8(string(data), "\uFFFD")
	t.mended = len(t.text) != len(data)
	return t
}

// note says what the tail leaves out, or "" when it shows everything.
func (t tail) note() string {
	switch {
	case !t.truncated:
		return ""
	case t.shown < t.total:
		return fmt.Sprintf("[output truncated: showing the last %d of %d lines]", t.shown, t.total)
	default:
		return fmt.Sprintf("[output truncated: showing the last %s of %s]",
			humanize.Bytes(int64(len(t.text))), humanize.Bytes(t.totalBytes))
	}
}

// raw returns the last maxBytes bytes written (all of them when fewer were)
// and how many were written in all.
func (b *tailBuffer) raw() ([]byte, int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf[max(len(b.buf)-maxBytes, 0):]), b.total
}

// lineCount counts the lines written, a last one without newline included.
func (b *tailBuffer) lineCount() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.total > 0 && b.last != '\n' {
		return b.lines + 1
	}
	return b.lines
}
