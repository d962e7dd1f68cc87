package rpc

import (
	"bufio"
	"bytes"
	"io"
	"sync"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/eventjson"
)

// Writer writes JSON lines: each call writes one whole line, ended by LF, and
// flushes it. It is safe for concurrent use, so events (from the runtime's
// subscriber) and responses (from the command loop) never interleave. After a
// write fails, every call returns that first error without writing.
type Writer struct {
	mu  sync.Mutex
	bw  *bufio.Writer
	err error
}

// NewWriter returns a Writer on w.
func NewWriter(w io.Writer) *Writer { return &Writer{bw: bufio.NewWriter(w)} }

// Raw U+2028 and U+2029 are legal inside JSON strings but end lines for some
// readers (JavaScript's readline among them), so they never go out raw.
var (
	lineSeparator      = []byte("\u2028")
	paragraphSeparator = []byte("\u2029")
)

// WriteLine writes one JSON value (as json.Marshal renders it: no raw newline)
// followed by LF, and flushes.
func (w *Writer) WriteLine(line []byte) error {
	if bytes.Contains(line, lineSeparator) || bytes.Contains(line, paragraphSeparator) {
		line = bytes.ReplaceAll(line, lineSeparator, []byte(`\u2028`))
		line = bytes.ReplaceAll(line, paragraphSeparator, []byte(`\u2029`))
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	if _, err := w.bw.Write(line); err != nil {
		w.err = err
		return err
	}
	if err := w.bw.WriteByte('\n'); err != nil {
		w.err = err
		return err
	}
	w.err = w.bw.Flush()
	return w.err
}

// Encode writes v as one JSON line.
func (w *Writer) Encode(v any) error {
	line, err := agent.EncodeJSON(v)
	if err != nil {
		return err
	}
	return w.WriteLine(line)
}

// WriteEvent writes ev as one line (see eventjson.Line).
func (w *Writer) WriteEvent(ev agent.Event, sessionID string) error {
	return w.WriteLine(eventjson.Line(ev, sessionID))
}

// Err returns the first write error, if any.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}
