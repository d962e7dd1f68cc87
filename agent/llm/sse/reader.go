// Package sse reads a server-sent event stream the way both provider SDKs'
// decoders do (same line splitting, fields, comments and dispatch), without
// allocating per event: an event's bytes stay valid only until the next call
// to Next, so a provider decodes each event in place and keeps only what it
// needs.
package sse

import (
	"bufio"
	"bytes"
	"io"
)

// MaxLine bounds one line of the stream, as in the SDKs (32 MiB): a longer
// line ends the stream with bufio.ErrTooLong.
const MaxLine = bufio.MaxScanTokenSize << 9

// readSize is the buffer a stream is read into at first: a read takes what
// the connection has, up to this, so a fast stream costs one system call
// for many events rather than one for every few (bufio.Scanner's own start
// is 4 KB).
const readSize = 64 << 10

// Event is one dispatched event. Both slices are the reader's and are valid
// until the next call to Next.
type Event struct {
	// Type is the value of the event's last "event:" line; empty when it had
	// none.
	Type []byte
	// Data is the values of its "data:" lines, each followed by "\n", as the
	// SDKs hand it over.
	Data []byte
}

// Reader reads the events of one stream. It is used by one goroutine.
type Reader struct {
	scan  *bufio.Scanner
	typ   []byte
	data  []byte
	event Event
}

// NewReader reads events from r.
func NewReader(r io.Reader) *Reader {
	scan := bufio.NewScanner(r)
	scan.Buffer(make([]byte, readSize), MaxLine)
	return &Reader{scan: scan}
}

// Next reads up to the next event and reports whether there is one. An
// event is dispatched by a blank line after at least one data line; one the
// stream leaves unterminated at its end is dropped, as the SDKs drop it.
// Comment lines (": ...") and unknown fields are skipped; "id" and "retry"
// are not used by either API.
func (r *Reader) Next() bool {
	r.typ, r.data = r.typ[:0], r.data[:0]
	for r.scan.Scan() {
		line := r.scan.Bytes()
		if len(line) == 0 {
			if len(r.data) == 0 {
				r.typ = r.typ[:0]
				continue
			}
			r.event = Event{Type: r.typ, Data: r.data}
			return true
		}
		name, value, _ := bytes.Cut(line, []byte(":"))
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
		switch string(name) {
		case "event":
			r.typ = append(r.typ[:0], value...)
		case "data":
			r.data = append(append(r.data, value...), '\n')
		}
	}
	return false
}

// Event is the event Next found.
func (r *Reader) Event() Event { return r.event }

// Err is what ended the stream other than its end: a read error, or a line
// longer than MaxLine.
func (r *Reader) Err() error { return r.scan.Err() }
