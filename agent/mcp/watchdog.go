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

// A ready server that stops answering is found two ways. While it is idle
// it is pinged once per its timeout; a ping unanswered within the timeout
// closes the session, which wait reports and run restarts. While a call
// runs the call's own bound applies instead (DefaultCallTimeout, reset by
// each progress notification): servers that handle one request at a time
// answer no ping while they work, and must not be restarted for it.

// DefaultCallTimeout bounds a tools/call without progress for a server
// whose configuration does not say (toolTimeoutSeconds).
const DefaultCallTimeout = 10 * time.Minute

// errNoPingAnswer is how a hung server's failure reads.
type errNoPingAnswer struct{ after time.Duration }

func (e errNoPingAnswer) Error() string {
	return fmt.Sprintf("the server did not answer a ping within %s", e.after)
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
			if s.busy() {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), every)
			perr := cs.Ping(ctx, nil)
			cancel()
			select {
			case <-done:
				return
			default:
			}
			if perr == nil || isMethodNotFound(perr) {
				continue
			}
			mu.Lock()
			err = errNoPingAnswer{after: every}
			mu.Unlock()
			s.o.logger().Warn("mcp server does not answer; closing it", "server", s.cfg.Name, "error", s.redacted(perr))
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

// busy says whether one of the server's tool calls is running.
func (s *server) busy() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
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
// the server's call timeout without progress; touch restarts the clock.
func (s *server) callBound(ctx context.Context) (bounded context.Context, touch func(), stop func()) {
	limit := s.cfg.callTimeout()
	bounded, cancel := context.WithCancelCause(ctx)
	timer := time.AfterFunc(limit, func() { cancel(errCallTimeout{after: limit}) })
	return bounded, func() { timer.Reset(limit) }, func() { timer.Stop(); cancel(nil) }
}

// errCallTimeout ends a call whose server stayed silent too long.
type errCallTimeout struct{ after time.Duration }

func (e errCallTimeout) Error() string {
	return fmt.Sprintf("no answer or progress within %s (toolTimeoutSeconds): the call was cancelled", e.after)
}
