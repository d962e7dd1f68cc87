package runner

import (
	"context"
	"errors"
	"strings"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/lanes"
	"github.com/steer-tui/steer/persistence"
)

// The children's answers as the parent's agent reads them (agent.Pending):
// Poll at each drain point, Unpoll when an abort kept them out, Wait when
// the run would end while children run; settle acknowledges them once the
// message carrying them is stored.

// Poll hands over the answers ready now, merged into one steering message
// that opens by saying they are runtime data, not user instructions.
func (s *subagents) Poll() []agent.Message {
	var texts, ids []string
	leaseID := ""
	if s.deps.store == nil {
		s.mu.Lock()
		texts, s.mem = s.mem, nil
		s.mu.Unlock()
	} else {
		s.mu.Lock()
		look := s.stored
		s.stored = false
		s.mu.Unlock()
		if !look {
			return nil
		}
		id, items, err := s.deps.store.LeaseSteering(s.deps.writes.ctx, s.deps.sessionID())
		if err != nil {
			if !errors.Is(err, persistence.ErrNotFound) {
				s.deps.log.Warn("leasing sub-agent answers failed", "error", err)
			}
			return nil
		}
		leaseID = id
		for _, it := range items {
			texts, ids = append(texts, it.Text), append(ids, it.ID)
		}
	}
	if len(texts) == 0 {
		return nil
	}
	prompt, n := lanes.MergeSteering(texts)
	msg := agent.UserMessage(prompt, s.deps.now())
	s.mu.Lock()
	if leaseID != "" {
		s.leases[leaseID] = ids[:n]
		s.stored = s.stored || n < len(ids) // the rest goes back to pending
		msg.QueueItemID = leasePrefix + leaseID
	} else {
		s.mem = append(texts[n:], s.mem...) // the rest waits for the next drain point
		key := newID("")
		s.held[key] = texts[:n]
		msg.QueueItemID = heldPrefix + key
	}
	hook := s.takenHook
	s.mu.Unlock()
	if hook != nil {
		hook()
	}
	return []agent.Message{msg}
}

// Unpoll takes back answers an abort kept from being injected: a lease is
// released at once, so that the next run's first drain point takes its
// answers again, and answers kept in memory go back to the front (S47).
func (s *subagents) Unpoll(msgs []agent.Message) {
	for i := len(msgs) - 1; i >= 0; i-- { // the front ends in the messages' order
		id := msgs[i].QueueItemID
		switch {
		case strings.HasPrefix(id, leasePrefix):
			leaseID := strings.TrimPrefix(id, leasePrefix)
			s.mu.Lock()
			delete(s.leases, leaseID)
			s.mu.Unlock()
			if err := s.deps.store.ReleaseSteering(s.deps.writes.ctx, leaseID); err != nil {
				// Its answers come back once the lease is stale.
				s.deps.log.Warn("releasing sub-agent answers failed", "lease", leaseID, "error", err)
			}
			s.mu.Lock()
			s.stored = true
			s.mu.Unlock()
		case strings.HasPrefix(id, heldPrefix):
			key := strings.TrimPrefix(id, heldPrefix)
			s.mu.Lock()
			s.mem = append(append([]string(nil), s.held[key]...), s.mem...)
			delete(s.held, key)
			s.mu.Unlock()
		}
	}
}

// settle acknowledges the leased answers once the message carrying them is
// stored (message_end), and puts the rest of the lease back; answers kept
// in memory are delivered then.
func (s *subagents) settle(ev agent.Event) {
	end, ok := ev.(agent.MessageEnd)
	if ok && strings.HasPrefix(end.Message.QueueItemID, heldPrefix) {
		s.mu.Lock()
		delete(s.held, strings.TrimPrefix(end.Message.QueueItemID, heldPrefix))
		s.mu.Unlock()
		return
	}
	if !ok || !strings.HasPrefix(end.Message.QueueItemID, leasePrefix) || s.deps.store == nil {
		return
	}
	leaseID := strings.TrimPrefix(end.Message.QueueItemID, leasePrefix)
	s.mu.Lock()
	ids, ok := s.leases[leaseID]
	delete(s.leases, leaseID)
	s.mu.Unlock()
	if !ok {
		return
	}
	store, ctx := s.deps.store, s.deps.writes.ctx
	s.deps.writes.add(saveJob{write: func(context.Context) error {
		if err := store.AckSteering(ctx, leaseID, ids...); err != nil {
			return err
		}
		return store.ReleaseSteering(ctx, leaseID)
	}, report: func(err error) { s.deps.writes.saved("acknowledging sub-agent answers", err) }})
}
