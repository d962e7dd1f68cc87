package pasteread

import (
	"sync"

	"github.com/muesli/cancelreader"
)

// handover lets another program read the terminal for a while (an
// external editor started with tea.ExecProcess): Suspend ends the read
// blocked on it, and the next Read, from the read loop Bubble Tea starts
// once it has the terminal back, reads through a new cancelreader.
type handover struct {
	file cancelreader.File // nil when the input is no terminal

	mu sync.Mutex // guards the reader's cancel against Read's swap
	// suspended is set by Suspend; ended once a read has seen the cancel,
	// which ended Bubble Tea's read loop: only then is there a new one.
	suspended, ended bool
}

// Suspend ends the read blocked on the terminal, so that nothing of what
// is typed for another program is read here; Bubble Tea's read loop ends
// with it (cancelreader.ErrCanceled). Without a terminal it does nothing.
func (r *Reader) Suspend() {
	h := &r.hand
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.file == nil || h.suspended {
		return
	}
	h.suspended, h.ended = true, false
	r.cancel()
}

// current is the cancel of the read under way.
func (h *handover) current(r *Reader) func() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return r.cancel
}

// resume gives a suspended reader a new cancelreader on the terminal; it is
// called on the reading goroutine, before each read. A terminal that
// cannot be read again leaves the cancelled reader, whose reads fail.
func (h *handover) resume(r *Reader) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.suspended || !h.ended {
		return // a read before the cancel was seen must see it
	}
	cr, err := cancelreader.NewReader(h.file)
	if err != nil {
		return
	}
	h.suspended = false
	r.src, r.cancel = cr, cr.Cancel
}

// cancelled records that a read returned the cancel of a suspension.
func (h *handover) cancelled() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.suspended {
		h.ended = true
	}
}
