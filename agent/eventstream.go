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
// reading early.
//
// A bounded stream (NewEventStream) lets its producer run eventStreamBuffer
// events ahead, then Push waits for the consumer, giving up when the producer's
// context is done or the consumer has closed the stream: a provider is held to
// the pace of the loop that reads it. An unbounded stream
// (NewUnboundedEventStream) never makes Push wait: events queue in order,
// without limit, until the consumer takes them; the loop writes to one so that
// a slow subscriber never holds up streaming or tools.
type EventStream[T, R any] struct {
	events   chan T
	closed   chan struct{} // closed by the consumer giving up
	resolved chan struct{} // closed once the result is known
	// backlog holds an unbounded stream's events until its pump hands them
	// to events; it is nil for a bounded stream.
	backlog *backlog[T]

	isComplete func(T) bool
	resultOf   func(T) R

	once      sync.Once
	closeOnce sync.Once
	resolve   sync.Once
	result    R
}

// NewEventStream returns a bounded stream whose result is resolved by the first
// event for which isComplete is true, as resultOf(event).
func NewEventStream[T, R any](isComplete func(T) bool, resultOf func(T) R) *EventStream[T, R] {
	return &EventStream[T, R]{
		events:     make(chan T, eventStreamBuffer),
		closed:     make(chan struct{}),
		resolved:   make(chan struct{}),
		isComplete: isComplete,
		resultOf:   resultOf,
	}
}

// NewUnboundedEventStream is NewEventStream without a limit: Push never waits
// for the consumer. A goroutine hands the events over; it ends with End.
func NewUnboundedEventStream[T, R any](isComplete func(T) bool, resultOf func(T) R) *EventStream[T, R] {
	s := NewEventStream(isComplete, resultOf)
	s.backlog = &backlog[T]{wake: make(chan struct{}, 1)}
	go s.pump()
	return s
}

// Push hands one event to the consumer. It reports false, dropping the event,
// when the consumer has closed the stream, or when a bounded stream's ctx is
// done while it waits. A completing event resolves the result even when it
// cannot be delivered.
func (s *EventStream[T, R]) Push(ctx context.Context, ev T) bool {
	if s.isComplete(ev) {
		s.settle(s.resultOf(ev))
	}
	if s.backlog != nil {
		select {
		case <-s.closed:
			return false
		default:
		}
		s.backlog.add(ev, s.events)
		return true
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

// TryPush is Push when that needs no wait: it reports false, handing
// nothing over, when a bounded stream's consumer is eventStreamBuffer events
// behind.
func (s *EventStream[T, R]) TryPush(ev T) bool {
	if s.backlog == nil && !s.isComplete(ev) {
		select {
		case s.events <- ev:
			return true
		case <-s.closed:
			return true // dropped, as Push drops it
		default:
			return false
		}
	}
	s.Push(context.Background(), ev)
	return true
}

// End closes the event channel, after the events already pushed. Call it
// exactly once, after the last Push; a stream that never saw a completing
// event resolves to fallback.
func (s *EventStream[T, R]) End(fallback R) {
	s.once.Do(func() {
		s.settle(fallback)
		if s.backlog != nil {
			s.backlog.end()
			return
		}
		close(s.events)
	})
}

func (s *EventStream[T, R]) settle(r R) {
	s.resolve.Do(func() {
		s.result = r
		close(s.resolved)
	})
}

// pump hands an unbounded stream's backlog to the consumer in order and
// closes the channel once the backlog is empty and End was called. Events
// left when the consumer closes the stream are dropped.
func (s *EventStream[T, R]) pump() {
	for {
		batch, ended := s.backlog.take()
		if ended {
			close(s.events)
			return
		}
		for _, ev := range batch {
			select {
			case s.events <- ev:
			case <-s.closed:
			}
		}
	}
}

// Events returns the channel to range over; it is closed after End.
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

// backlog is the unbounded FIFO between an unbounded stream's producer and its
// pump. While the consumer keeps up, events skip it and go straight into the
// channel; once one waits here, the rest queue behind it to keep the order.
type backlog[T any] struct {
	mu       sync.Mutex
	items    []T
	inFlight bool // the pump holds a batch it has not handed over yet
	ended    bool
	wake     chan struct{} // holds a token once items or ended changed
}

func (b *backlog[T]) add(ev T, events chan<- T) {
	b.mu.Lock()
	if len(b.items) == 0 && !b.inFlight {
		select {
		case events <- ev:
			b.mu.Unlock()
			return
		default:
		}
	}
	b.items = append(b.items, ev)
	b.mu.Unlock()
	b.signal()
}

func (b *backlog[T]) end() {
	b.mu.Lock()
	b.ended = true
	b.mu.Unlock()
	b.signal()
}

func (b *backlog[T]) signal() {
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// take waits for queued events and returns them all, marking them in flight
// until the next take; it reports ended once End was called and nothing is
// left.
func (b *backlog[T]) take() (items []T, ended bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for {
		if len(b.items) > 0 {
			items, b.items, b.inFlight = b.items, nil, true
			return items, false
		}
		b.inFlight = false
		if b.ended {
			return nil, true
		}
		b.mu.Unlock()
		<-b.wake
		b.mu.Lock()
	}
}
