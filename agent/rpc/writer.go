package rpc

import (
	"bytes"
	"context"
	"io"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/eventjson"
	"github.com/steer-tui/steer/agent/runner/outbox"
)

// Writer writes JSON lines: each call writes one whole line, ended by LF. It
// is safe for concurrent use, so events (from the runtime's subscriber) and
// responses (from the command loop) never interleave. Lines go out through an
// outbox: a call never waits for the client to read, so a client that stops
// reading cannot hold back the runtime's saving of the events after it. After
// a write fails, every call returns that first error.
type Writer struct {
	box *outbox.Outbox
	out *outbox.Target
}

// NewWriter returns a Writer on w; Close ends it.
func NewWriter(w io.Writer) *Writer {
	box := outbox.New()
	return &Writer{box: box, out: box.To(w)}
}

// Raw U+2028 and U+2029 are legal inside JSON strings but end lines for some
// readers (JavaScript's readline among them), so they never go out raw.
var (
	lineSeparator      = []byte("\u2028")
	paragraphSeparator = []byte("\u2029")
)

// WriteLine writes one JSON value (as json.Marshal renders it: no raw newline)
// followed by LF.
func (w *Writer) WriteLine(line []byte) error {
	if bytes.Contains(line, lineSeparator) || bytes.Contains(line, paragraphSeparator) {
		line = bytes.ReplaceAll(line, lineSeparator, []byte(`\u2028`))
		line = bytes.ReplaceAll(line, paragraphSeparator, []byte(`\u2029`))
	}
	whole := make([]byte, 0, len(line)+1)
	_, err := w.out.Write(append(append(whole, line...), '\n'))
	return err
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
func (w *Writer) Err() error { return w.out.Err() }

// Close waits until every line is written, or ctx ends, and returns ctx's
// error or the first write error.
func (w *Writer) Close(ctx context.Context) error {
	if err := w.box.Close(ctx); err != nil {
		return err
	}
	return w.out.Err()
}
