package mcp

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A ready server is pinged once per its timeout (timeoutSeconds), idle or
// not. A server that shows no sign of life for that long — no ping
// answered, and while a call runs no progress notification either — and
// is not waiting on steer (an elicitation or a sampling request of its
// being answered) is hung: its running calls are cancelled (the server is sent
// notifications/cancelled) and end as errors naming the server and the
// timeout, and its session is closed, which wait reports and run restarts
// as for a crash. A server that answers pings, or reports progress, while
// one call works on is alive; that call is bounded by the call timeout
// instead (toolTimeoutSeconds, DefaultCallTimeout, reset by each progress
// notification). A server that answers nothing while it works (one
// request at a time, no progress) needs a timeoutSeconds longer than its
// slowest tool.

// DefaultCallTimeout bounds a tools/call without progress for a server
// whose configuration does not say (toolTimeoutSeconds).
const DefaultCallTimeout = 10 * time.Minute

// cancelGrace is how long a hung server's link stays up after its calls
// were cancelled: time for the best-effort notifications/cancelled to
// leave.
const cancelGrace = 250 * time.Millisecond

// errNoPingAnswer is how a hung server's failure reads.
type errNoPingAnswer struct{ after time.Duration }

func (e errNoPingAnswer) Error() string {
	return fmt.Sprintf("the server did not answer a ping within %s", e.after)
}

// errHungCall ends a call whose server showed no sign of life for its
// timeout.
type errHungCall struct{ after time.Duration }

func (e errHungCall) Error() string {
	return fmt.Sprintf("no answer, progress or ping reply within %s (timeoutSeconds): the call was cancelled and the server marked failed", e.after)
}

// watch pings cs while the server is idle, until the returned stop; hung
// reports the failure that closed the session, if it was the watch.
func (s *server) watch(cs *sdk.ClientSession) (stop func(), hung func() error) {
	every := s.cfg.timeout()
	done := make(chan struct{})
	var (
		mu  sync.Mutex
		err error
	)
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			asked := time.Now()
			ctx, cancel := context.WithTimeout(context.Background(), every)
			perr := cs.Ping(ctx, nil)
			cancel()
			select {
			case <-done:
				return
			default:
			}
			// A server waiting on the user may leave a ping unanswered; one
			// whose ping fails outright has gone, waiting or not.
			unanswered := errors.Is(perr, context.DeadlineExceeded)
			if perr == nil || isMethodNotFound(perr) || s.progressedSince(asked) || (unanswered && s.waitsOnUs()) {
				continue
			}
			mu.Lock()
			err = errNoPingAnswer{after: every}
			mu.Unlock()
			s.o.logger().Warn("mcp server does not answer; closing it", "server", s.cfg.Name, "error", s.redacted(perr))
			// Cancelled first, while the link is up, so that the server
			// hears notifications/cancelled before it is killed; the SDK
			// sends it on a goroutine of its own, unawaitable.
			if s.cancelCalls(errHungCall{after: every}) {
				time.Sleep(cancelGrace)
			}
			// The questions put to the user end first: closing the session
			// waits for its handlers.
			s.endAnswers(fmt.Errorf("mcp server %s failed: %v", s.cfg.Name, errNoPingAnswer{after: every}))
			s.killLink()
			_ = cs.Close()
			return
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done) }) }, func() error {
		mu.Lock()
		defer mu.Unlock()
		return err
	}
}

// isMethodNotFound says that the server does not know ping (the
// specification requires it; a server without it is left unwatched).
func isMethodNotFound(err error) bool {
	var werr *jsonrpc.Error
	return errors.As(err, &werr) && werr.Code == jsonrpc.CodeMethodNotFound
}

// progressedSince says whether one of the server's calls reported
// progress since t: a sign of life although a ping went unanswered.
func (s *server) progressedSince(t time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.progressed.Before(t)
}

// waitsOnUs says whether the server waits for steer's answer to a request
// of its own (elicitation, sampling): a server may answer nothing else
// meanwhile, and is alive.
func (s *server) waitsOnUs() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.answering) > 0
}

// asked counts a request of the server's that steer answers, until the
// returned func. Its context ends when the server fails or closes, so
// that a form or a sampling question put to the user closes with the
// server that asked: the SDK does not cancel it when the link drops.
func (s *server) asked(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	s.mu.Lock()
	s.answerID++
	id := s.answerID
	s.answering[id] = cancel
	s.mu.Unlock()
	return ctx, func() {
		s.mu.Lock()
		delete(s.answering, id)
		s.mu.Unlock()
		cancel(nil)
	}
}

// endAnswers ends the server's requests steer is still answering, with
// cause.
func (s *server) endAnswers(cause error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropAnswers(cause)
}

// dropAnswers is endAnswers for a caller that holds s.mu.
func (s *server) dropAnswers(cause error) {
	for id, cancel := range s.answering {
		cancel(cause)
		delete(s.answering, id)
	}
}

// cancelCalls ends every running call of the server with cause, and says
// whether there was one.
func (s *server) cancelCalls(cause error) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.calls {
		c.cancel(cause)
	}
	return len(s.calls) > 0
}

// killLink ends a stdio child's group, so that a hung child's session ends
// at once.
func (s *server) killLink() {
	s.mu.Lock()
	l := s.link
	s.mu.Unlock()
	if l != nil {
		l.kill()
	}
}

// callBound is ctx for one tools/call, cancelled with errCallTimeout after
// the server's call timeout without progress; touch restarts the clock,
// and cancel ends the call with a cause of its own (a hung server).
func (s *server) callBound(ctx context.Context) (bounded context.Context, touch func(), cancel context.CancelCauseFunc, stop func()) {
	limit := s.cfg.callTimeout()
	bounded, cancel = context.WithCancelCause(ctx)
	timer := time.AfterFunc(limit, func() { cancel(errCallTimeout{after: limit}) })
	return bounded, func() { timer.Reset(limit) }, cancel, func() { timer.Stop(); cancel(nil) }
}

// errCallTimeout ends a call whose server stayed silent too long.
type errCallTimeout struct{ after time.Duration }

func (e errCallTimeout) Error() string {
	return fmt.Sprintf("no answer or progress within %s (toolTimeoutSeconds): the call was cancelled", e.after)
}
