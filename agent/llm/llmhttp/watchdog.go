package llmhttp

import (
	"context"
	"errors"
	"fmt"
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

// IdleError is the kernel's error for a response that provider left silent
// for the idle window after: kind timeout, so that failover treats it as
// one, and the same message whichever provider went silent.
func IdleError(provider string, after time.Duration) *agent.ProviderError {
	return &agent.ProviderError{Kind: agent.ErrorTimeout,
		Message: (&IdleTimeoutError{Provider: provider, After: after}).Error()}
}

// Watchdog is the idle watchdog of one streaming response: a timer armed by
// NewWatchdog that cancels Context with an *IdleTimeoutError as the cause
// when it fires, so that a watchdog cancel can be told from the caller's.
// Whoever reads the response re-arms it (Resume) after every piece of
// progress, and pauses it (Pause) while handing a piece to a consumer that
// may be slow. Every provider runs its responses under one — the HTTP ones
// through an Exchange, the scripted one directly — so a silent response ends
// the same way everywhere.
//
// Apart from the timer's own goroutine, which only cancels, a Watchdog is
// used by the one goroutine that reads the response.
type Watchdog struct {
	provider string
	idle     time.Duration
	parent   context.Context
	ctx      context.Context
	cancel   context.CancelCauseFunc
	timer    *time.Timer
}

// NewWatchdog arms a watchdog for a response of provider produced under
// parent; idle must be positive.
func NewWatchdog(parent context.Context, provider string, idle time.Duration) *Watchdog {
	ctx, cancel := context.WithCancelCause(parent)
	d := &Watchdog{provider: provider, idle: idle, parent: parent, ctx: ctx, cancel: cancel}
	d.timer = time.AfterFunc(idle, func() { cancel(&IdleTimeoutError{Provider: provider, After: idle}) })
	return d
}

// Context is the response's context: the parent's, cancelled by the
// watchdog.
func (d *Watchdog) Context() context.Context { return d.ctx }

// Pause stops the watchdog while the caller handles a piece of the
// response, so that a slow consumer is not mistaken for a silent server;
// Resume re-arms it.
func (d *Watchdog) Pause() { d.timer.Stop() }

// Resume re-arms the watchdog for a full idle window: call it after every
// piece of progress.
func (d *Watchdog) Resume() { d.timer.Reset(d.idle) }

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
// IdleError of the provider and the window.
func (d *Watchdog) IdleFailure() *agent.ProviderError { return IdleError(d.provider, d.idle) }
