package llmhttp

import (
	"context"
	"fmt"

	"github.com/steer-tui/steer/agent"
)

// SDKStream is the part of an SDK's streaming response (both SDKs'
// ssestream.Stream) that Stream reads.
type SDKStream[T any] interface {
	Next() bool
	Current() T
	Err() error
	Close() error
}

// Request is one provider's side of a streaming request: how to open it and
// how to read what it streams. All of its funcs run on the goroutine that
// calls Stream.
type Request[T any] struct {
	// Provider names the server in messages.
	Provider string
	// Windows are the watchdog's windows; Windows.Idle must be positive.
	Windows Windows
	// Clock runs the watchdog; nil means RealClock.
	Clock Clock
	// Secrets are removed from every error: the key the request uses and
	// the configured one.
	Secrets []string
	// Open builds the request and starts it under x.Context() with
	// x.Middleware installed. Its error means the request could not be built
	// (the SDK reports failures to send it through the stream's Err).
	Open func(x *Exchange) (SDKStream[T], error)
	// Handle turns one streamed item into writer calls and reports whether
	// it carried progress: the message's start, a content, thinking or
	// tool-call delta, usage, a stop. An item without any (an empty chunk, an
	// event of an unknown kind) leaves the watchdog's window running. An
	// error ends the response.
	Handle func(T) (progress bool, err *agent.ProviderError)
	// End is called once the SDK stream is over; it gives the stop reason, or
	// the error a stream that ended badly (empty, cut short) amounts to.
	End func() (agent.StopReason, *agent.ProviderError)
	// Failure turns the error that ended the SDK stream into the kernel's:
	// the provider's own error events, then Exchange.Failure for the rest.
	Failure func(x *Exchange, err error) *agent.ProviderError
}

// Stream runs r to its end on the caller's goroutine, pushing through w, and
// always ends w: with done, or with an error event (stopReason aborted once
// ctx is cancelled). It recovers from panics in r's funcs. An item that
// Handle says carried progress re-arms the watchdog; other items, and
// keep-alives the SDK never yields (comments, pings), do not. The watchdog is
// paused while Handle runs, so a slow consumer is not taken for a silent
// server. w holds its deltas (agent.StreamWriter.HoldDeltas) until the next
// read of the body, so what one read brought reaches the consumer as one
// event a block.
func Stream[T any](ctx context.Context, w *agent.StreamWriter, r Request[T]) {
	fail := func(e *agent.ProviderError) { w.Fail(Redact(e, r.Secrets...)) }
	defer func() {
		// Both are no-ops once the response has ended.
		if p := recover(); p != nil {
			fail(&agent.ProviderError{Kind: agent.ErrorStream, Message: fmt.Sprintf("%s provider panicked: %v", r.Provider, p)})
		}
		fail(&agent.ProviderError{Kind: agent.ErrorStream, Message: r.Provider + " provider ended without a result"})
	}()

	x := Start(ctx, r.Provider, r.Windows, r.Clock)
	defer x.Stop()
	s, err := r.Open(x)
	if err != nil {
		fail(&agent.ProviderError{Kind: agent.ErrorMalformed, Message: fmt.Sprintf("%s request: %v", r.Provider, err)})
		return
	}
	defer s.Close()
	if err := s.Err(); err != nil {
		fail(r.Failure(x, err))
		return
	}

	w.Start()
	// What one read brought reaches the consumer as one event a block (see
	// agent.StreamWriter); what the writer holds is flushed before the next
	// read, so nothing waits on the network unseen.
	w.HoldDeltas()
	x.OnRead(func() {
		if !w.TryFlush() {
			x.Hold(w.Flush) // a slow consumer is not a silent server
		}
	})
	handled := false
	for s.Next() {
		handled = true
		x.Pause()
		progress, perr := r.Handle(s.Current())
		x.Resume(progress)
		if perr != nil {
			fail(x.WithTail(perr))
			return
		}
	}
	if !handled {
		// Not one item: the body may not be a stream at all (a web page,
		// a whole JSON answer), which says more than an empty answer or a
		// parse error would.
		if e := x.NotEventStream(); e != nil {
			fail(e)
			return
		}
	}
	if err := s.Err(); err != nil {
		fail(r.Failure(x, err))
		return
	}
	reason, perr := r.End()
	if perr != nil {
		fail(x.WithTail(perr))
		return
	}
	w.Finish(reason)
}
