package agent

import (
	"context"
	"sync"
)

// eventStreamBuffer lets a producer run a little ahead of its consumer so that a
// fast stream does not pay a goroutine hand-off for every event.
const eventStreamBuffer = 64

// EventStream carries the events of one producer to one consumer and, separately,
// the final value the producer resolved. It is used at both levels of the kernel:
// an assistant stream completes on done or error, an agent run on agent_end.
//
// The producer calls Push for each event and End when it has nothing more; the
// consumer ranges over Events until it is closed, or calls Close when it stops
// reading early. Push never blocks forever: it gives up when the producer's
// context is done or the consumer has closed the stream.
type EventStream[T, R any] struct {
	events   chan T
	closed   chan struct{} // closed by the consumer giving up
	resolved chan struct{} // closed once the result is known

	isComplete func(T) bool
	resultOf   func(T) R

	once      sync.Once
	closeOnce sync.Once
	resolve   sync.Once
	result    R
}

// NewEventStream returns a stream whose result is resolved by the first event for
// which isComplete is true, as resultOf(event).
func NewEventStream[T, R any](isComplete func(T) bool, resultOf func(T) R) *EventStream[T, R] {
	return &EventStream[T, R]{
		events:     make(chan T, eventStreamBuffer),
		closed:     make(chan struct{}),
		resolved:   make(chan struct{}),
		isComplete: isComplete,
		resultOf:   resultOf,
	}
}

// Push hands one event to the consumer. It reports false, dropping the event,
// when ctx is done or the consumer has closed the stream. A completing event
// resolves the result even when it cannot be delivered.
func (s *EventStream[T, R]) Push(ctx context.Context, ev T) bool {
	if s.isComplete(ev) {
		s.settle(s.resultOf(ev))
	}
	select {
	case s.events <- ev:
		return true
	default:
	}
	select {
	case s.events <- ev:
		return true
	case <-s.closed:
		return false
	case <-ctx.Done():
		return false
	}
}

// End closes the event channel. Call it exactly once, after the last Push; a
// stream that never saw a completing event resolves to fallback.
func (s *EventStream[T, R]) End(fallback R) {
	s.once.Do(func() {
		s.settle(fallback)
		close(s.events)
	})
}

func (s *EventStream[T, R]) settle(r R) {
	s.resolve.Do(func() {
		s.result = r
		close(s.resolved)
	})
}

// Events returns the channel to range over; it is closed by End.
func (s *EventStream[T, R]) Events() <-chan T { return s.events }

// Close tells the producer that nobody reads any more; pending and later
// Pushes return false. It is safe to call more than once.
func (s *EventStream[T, R]) Close() { s.closeOnce.Do(func() { close(s.closed) }) }

// Result waits for the resolved value. It returns ctx's error if ctx is done
// first.
func (s *EventStream[T, R]) Result(ctx context.Context) (R, error) {
	select {
	case <-s.resolved:
		return s.result, nil
	case <-ctx.Done():
		var zero R
		return zero, ctx.Err()
	}
}
