package llmhttp

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/steer-tui/steer/agent"
)

// IdleTimeoutError is the cause the watchdog cancels a request with.
type IdleTimeoutError struct {
	Provider string
	After    time.Duration
}

// Error says which provider went silent for how long.
func (e *IdleTimeoutError) Error() string {
	return fmt.Sprintf("no data from %s for %s (idle timeout)", e.Provider, e.After)
}

// IdleError is the kernel's error for a response that provider left
// without progress for the window after: kind timeout, so that failover
// classifies it as one, and the same message whichever provider stalled.
// keepAlives is the number of keep-alives (pings, SSE comments, empty
// chunks) that arrived meanwhile and did not count; the message names them,
// so that a stalled server that kept the connection busy reads as one.
func IdleError(provider string, after time.Duration, keepAlives int) *agent.ProviderError {
	msg := (&IdleTimeoutError{Provider: provider, After: after}).Error()
	if keepAlives > 0 {
		msg = fmt.Sprintf("no progress from %s for %s (idle timeout; %d keep-alives did not count)", provider, after, keepAlives)
	}
	return &agent.ProviderError{Kind: agent.ErrorTimeout, Message: msg}
}

// Windows are a watchdog's two windows.
type Windows struct {
	// Idle is how long a response may go without progress once it has made
	// some; it must be positive.
	Idle time.Duration
	// First is how long it may wait for its first progress (the time to
	// first token of a loaded local model); 0 means Idle.
	First time.Duration
}

// FirstWindow is the window before the first progress: First, or Idle.
func (w Windows) FirstWindow() time.Duration {
	if w.First > 0 {
		return w.First
	}
	return w.Idle
}

// Watchdog is the idle watchdog of one streaming response. It counts
// progress, not bytes: only what carries progress — the message's start, a
// content, thinking or tool-call delta, usage, a stop — re-arms it for a full
// window; keep-alives (pings, SSE comments, empty chunks), which servers
// keep sending while stalled, leave the window running. Before the first
// progress the window is Windows.FirstWindow, after it Windows.Idle. When it
// runs out, Context is cancelled with an *IdleTimeoutError as the cause, so
// that a watchdog cancel can be told from the caller's.
//
// Whoever reads the response pauses it (Pause) while handing a piece to a
// consumer that may be slow, then resumes it (Resume) saying whether the
// piece was progress. Every provider runs its responses under one — the HTTP
// ones through an Exchange, the scripted one directly — so a stalled
// response ends the same way everywhere.
//
// Apart from the timer's own goroutine, which only cancels, a Watchdog is
// used by the one goroutine that reads the response.
type Watchdog struct {
	provider string
	windows  Windows
	clock    Clock
	parent   context.Context
	ctx      context.Context
	cancel   context.CancelCauseFunc
	timer    Timer

	window     atomic.Int64 // the window running now, read by the timer's goroutine
	deadline   time.Time    // when the armed timer fires
	left       time.Duration
	keepAlives int // since the last progress
}

// NewWatchdog arms a watchdog for a response of provider produced under
// parent, on clock (nil: RealClock); w.Idle must be positive.
func NewWatchdog(parent context.Context, provider string, w Windows, clock Clock) *Watchdog {
	if clock == nil {
		clock = RealClock
	}
	ctx, cancel := context.WithCancelCause(parent)
	d := &Watchdog{provider: provider, windows: w, clock: clock, parent: parent, ctx: ctx, cancel: cancel}
	first := w.FirstWindow()
	d.window.Store(int64(first))
	d.deadline = clock.Now().Add(first)
	d.timer = clock.AfterFunc(first, func() {
		cancel(&IdleTimeoutError{Provider: provider, After: time.Duration(d.window.Load())})
	})
	return d
}

// Context is the response's context: the parent's, cancelled by the
// watchdog.
func (d *Watchdog) Context() context.Context { return d.ctx }

// Pause stops the watchdog while the caller handles a piece of the
// response, so that a slow consumer is not mistaken for a silent server;
// Resume re-arms it.
func (d *Watchdog) Pause() {
	d.timer.Stop()
	d.left = max(d.deadline.Sub(d.clock.Now()), 0)
}

// Resume re-arms the watchdog after Pause: for a full idle window when the
// piece was progress, else for what was left of the window running.
func (d *Watchdog) Resume(progress bool) {
	if !progress {
		d.keepAlives++
		d.arm(d.left)
		return
	}
	d.keepAlives = 0
	d.window.Store(int64(d.windows.Idle))
	d.arm(d.windows.Idle)
}

// Hold runs f, which hands the consumer what was read already, with the
// watchdog paused, then lets the window that was running go on: like Pause
// and Resume, but f's time is neither progress nor a keep-alive.
func (d *Watchdog) Hold(f func()) {
	d.Pause()
	f()
	d.arm(d.left)
}

// KeepAlive counts a keep-alive that never reached the reader as a piece
// (an SSE comment, a ping the SDK drops): it changes nothing but the count
// the timeout's message reports.
func (d *Watchdog) KeepAlive() { d.keepAlives++ }

func (d *Watchdog) arm(w time.Duration) {
	d.deadline = d.clock.Now().Add(w)
	d.timer.Reset(w)
}

// Stop disarms the watchdog and releases the response's context. Classify
// failures before calling it.
func (d *Watchdog) Stop() {
	d.timer.Stop()
	d.cancel(context.Canceled)
}

// TimedOut reports whether the watchdog, not the caller, ended the response.
func (d *Watchdog) TimedOut() bool {
	var idle *IdleTimeoutError
	return d.parent.Err() == nil && errors.As(context.Cause(d.ctx), &idle)
}

// IdleFailure is the error a response the watchdog ended fails with:
// IdleError of the provider, the window that ran out and the keep-alives
// that arrived since the last progress.
func (d *Watchdog) IdleFailure() *agent.ProviderError {
	return IdleError(d.provider, time.Duration(d.window.Load()), d.keepAlives)
}
