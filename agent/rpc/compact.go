package rpc

import (
	"context"
	"time"
)

// compaction is the compact command under way. A compaction waits for a lane
// and a model call, so it runs off the command loop: the loop goes on
// reading, abort and quit cancel it at once, and the commands after it are
// held and answered, in order, once compact has answered.
type compaction struct {
	cancel context.CancelFunc
	done   chan struct{} // closed once compact's response is written
}

// startCompaction answers compact c on a goroutine of its own; the command
// loop holds the inputs that follow until s.compacting.done closes.
func (s *Server) startCompaction(ctx context.Context, c command) {
	ctx, cancel := context.WithCancel(ctx)
	cp := &compaction{cancel: cancel, done: make(chan struct{})}
	s.compacting = cp
	go func() {
		defer close(cp.done)
		defer cancel()
		data, err := s.compact(ctx, c)
		s.respond(answer(c, data, err))
	}()
}

// holdDuringCompaction keeps in until the compaction ends; an abort or a
// quit among the held lines cancels the compaction as soon as it is read.
func (s *Server) holdDuringCompaction(in input) {
	if len(in.line) > 0 {
		if c, err := parseCommand(in.line); err == nil && (c.typ == "abort" || c.typ == "quit") {
			s.compacting.cancel()
		}
	}
	s.held = append(s.held, in)
}

// endCompaction cancels the compaction under way, if any, and waits (at
// most wait) for its answer, so that it is out before Serve returns.
func (s *Server) endCompaction(wait time.Duration) {
	if s.compacting == nil {
		return
	}
	s.compacting.cancel()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-s.compacting.done:
	case <-timer.C:
	}
	s.compacting = nil
}

// compactionDone is the channel that closes when the compaction under way
// has answered; nil (never ready) when none is.
func (s *Server) compactionDone() <-chan struct{} {
	if s.compacting == nil {
		return nil
	}
	return s.compacting.done
}
