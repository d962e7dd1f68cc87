// Package pasteread takes bracketed pastes off the terminal's input before
// Bubble Tea's reader sees them. Bubble Tea v1 reads 256 bytes at a time
// and, while a paste is still incomplete, copies and rescans all of it on
// every read: a 1 MB paste cost it 1.2 s, a 5 MB one half a minute. This
// reader finds a paste's end in one pass and delivers the paste as the one
// message Bubble Tea would have made of it (a tea.KeyMsg with Paste set);
// everything else passes through unchanged and in order.
package pasteread

import (
	"bytes"
	"errors"
	"io"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/cancelreader"
)

// The markers a terminal puts around a paste in bracketed-paste mode.
const (
	pasteStart = "\x1b[200~"
	pasteEnd   = "\x1b[201~"
)

// chunkSize is how much one read of the terminal asks for.
const chunkSize = 64 << 10

// segment is what the reader has read but not yet handed on: bytes for
// Bubble Tea, or a whole paste for deliver.
type segment struct {
	data    []byte
	isPaste bool
}

// Reader is the input Bubble Tea reads (tea.WithInput(r.Input())).
type Reader struct {
	src     io.Reader
	cancel  func() bool // ends a blocked read; nil when src cannot be cancelled
	file    fileLike    // the terminal, when src is one (raw mode needs its Fd)
	hand    handover    // the terminal handed to another program (suspend.go)
	deliver func(tea.Msg)

	buf     []byte
	queue   []segment
	inPaste bool
	paste   []byte // the paste so far, while inPaste
	scanned int    // how much of paste was searched for its end already
	held    []byte // the start of a start marker, at the end of the last read
}

// fileLike is a terminal: what Bubble Tea needs to put it in raw mode.
type fileLike interface {
	io.ReadWriteCloser
	Fd() uintptr
}

// New returns a reader of src that hands each bracketed paste to deliver
// (the program's Send), from the goroutine that reads, after every byte
// that came before it was read by Bubble Tea and before any that comes
// after. A terminal (an *os.File) is read through a cancelreader, so that
// Cancel can end the read left blocked when the program ends.
func New(src io.Reader, deliver func(tea.Msg)) (*Reader, error) {
	r := &Reader{src: src, deliver: deliver, buf: make([]byte, chunkSize)}
	if f, ok := src.(fileLike); ok {
		r.file = f
	}
	if f, ok := src.(cancelreader.File); ok {
		cr, err := cancelreader.NewReader(f)
		if err != nil {
			return nil, err
		}
		r.src, r.cancel = cr, cr.Cancel
		r.hand.file = f
	}
	return r, nil
}

// Input is what to give tea.WithInput: the reader, with the terminal's file
// descriptor when src is a terminal (Bubble Tea puts it in raw mode).
func (r *Reader) Input() io.Reader {
	if r.file != nil {
		return terminal{r}
	}
	return r
}

// Cancel ends a read blocked on the terminal, once the program has ended.
func (r *Reader) Cancel() {
	if cancel := r.hand.current(r); cancel != nil {
		cancel()
	}
}

// Read hands on what was read, in order: bytes to p, pastes to deliver.
func (r *Reader) Read(p []byte) (int, error) {
	for {
		for len(r.queue) > 0 {
			head := &r.queue[0]
			if head.isPaste {
				r.queue = r.queue[1:]
				r.deliver(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(string(head.data)), Paste: true})
				continue
			}
			n := copy(p, head.data)
			if head.data = head.data[n:]; len(head.data) == 0 {
				r.queue = r.queue[1:]
			}
			return n, nil
		}
		r.hand.resume(r)
		n, err := r.src.Read(r.buf)
		if n > 0 {
			r.take(r.buf[:n])
		}
		if err != nil && len(r.queue) == 0 {
			if errors.Is(err, cancelreader.ErrCanceled) {
				r.hand.cancelled()
				return 0, cancelreader.ErrCanceled
			}
			return 0, err
		}
	}
}

// heldMin is the shortest start of a marker held back for the next read:
// "\x1b" is Esc and "\x1b[" Alt+[, keys that must not wait for more input;
// "\x1b[2" and longer are no key on their own.
const heldMin = 3

// take splits a chunk into bytes and pastes. A start marker split across
// two reads is recognised when at least heldMin of its bytes came first;
// otherwise the bytes pass through and Bubble Tea reads the paste itself.
func (r *Reader) take(chunk []byte) {
	if len(r.held) > 0 {
		chunk = append(r.held, chunk...)
		r.held = nil
	}
	for len(chunk) > 0 {
		if !r.inPaste {
			i := bytes.Index(chunk, []byte(pasteStart))
			if i < 0 {
				keep := len(chunk) - markerPrefix(chunk)
				if keep > 0 {
					r.queue = append(r.queue, segment{data: bytes.Clone(chunk[:keep])})
				}
				r.held = bytes.Clone(chunk[keep:])
				return
			}
			if i > 0 {
				r.queue = append(r.queue, segment{data: bytes.Clone(chunk[:i])})
			}
			r.inPaste, r.paste, r.scanned = true, nil, 0
			chunk = chunk[i+len(pasteStart):]
			continue
		}
		r.paste = append(r.paste, chunk...)
		end := endFrom(r.paste, r.scanned)
		if end < 0 {
			r.scanned = len(r.paste)
			return
		}
		r.queue = append(r.queue, segment{data: r.paste[:end:end], isPaste: true})
		chunk = bytes.Clone(r.paste[end+len(pasteEnd):])
		r.inPaste, r.paste = false, nil
	}
}

// endFrom is where the end marker starts in paste, or -1. It searches only
// what the search of paste[:scanned] could not have found, the last bytes
// that might start a marker and what came since: each byte of a paste is
// searched about once however many reads bring it.
func endFrom(paste []byte, scanned int) int {
	from := max(scanned-len(pasteEnd)+1, 0)
	i := bytes.Index(paste[from:], []byte(pasteEnd))
	if i < 0 {
		return -1
	}
	return from + i
}

// markerPrefix is the length of the start of a start marker that ends b,
// when at least heldMin long; else 0.
func markerPrefix(b []byte) int {
	for n := min(len(pasteStart)-1, len(b)); n >= heldMin; n-- {
		if bytes.HasSuffix(b, []byte(pasteStart[:n])) {
			return n
		}
	}
	return 0
}

// terminal is the reader with the terminal's Fd, Write and Close.
type terminal struct{ *Reader }

func (t terminal) Fd() uintptr                 { return t.file.Fd() }
func (t terminal) Write(p []byte) (int, error) { return t.file.Write(p) }
func (t terminal) Close() error                { return nil }
