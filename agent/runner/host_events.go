package runner

import (
	"github.com/steer-tui/steer/agent"
)

// How the host's subscribers hear of its sessions: the current session's
// events, opening with its snapshot, the background badge, every session's
// events for SubscribeAll, and the notices.

// attach makes rt the runtime whose events the subscribers get, opening
// with the session_loaded snapshot. h.mu is held.
func (h *Host) attach(rt *Runtime) {
	if h.detach != nil {
		h.detach()
	}
	h.detach = rt.agent.Attach(func(st agent.State) {
		loaded := SessionLoaded{State: rt.stateOf(st), Approvals: rt.allApprovals(), Subagent: !h.owns(rt)}
		h.emitMu.Lock()
		defer h.emitMu.Unlock()
		if w := h.children[rt]; w != nil { // none for a sub-agent's session shown
			loaded.Subagents = w.latest() // progress after it is delivered after it
		}
		h.attached = rt
		h.deliverLocked(agent.Annotation{Kind: AnnotationSessionLoaded, Data: loaded})
	}, rt.ends.withRunEnd(func(ev agent.Event) {
		h.emitMu.Lock()
		defer h.emitMu.Unlock()
		if h.attached == rt { // an old forwarder may still be called once
			h.deliverLocked(ev)
		}
	}))
}

// announceBackground tells the subscribers which sessions run in the
// background now. h.mu is held.
func (h *Host) announceBackground() {
	runs := h.backgroundRuns()
	h.emitMu.Lock()
	defer h.emitMu.Unlock()
	h.deliverLocked(agent.Annotation{Kind: AnnotationBackgroundRuns, Data: runs})
}

// backgroundRuns lists the sessions running in the background, oldest
// first. h.mu is held.
func (h *Host) backgroundRuns() []BackgroundRun {
	runs := make([]BackgroundRun, 0, len(h.background))
	for rt, since := range h.background {
		runs = append(runs, BackgroundRun{SessionID: rt.SessionID(), Title: rt.title(),
			Since: since, Approvals: len(rt.allApprovals())})
	}
	sortBackground(runs)
	return runs
}

func (h *Host) deliverLocked(ev agent.Event) {
	for _, s := range h.subs {
		s.fn(ev)
	}
}

// Subscribe calls fn with every event of the current session, in order,
// and with the host's annotations (AnnotationSessionLoaded when the current
// session changes, AnnotationBackgroundRuns); fn must return quickly and
// must not call the host.
func (h *Host) Subscribe(fn agent.Subscriber) (unsubscribe func()) {
	h.emitMu.Lock()
	defer h.emitMu.Unlock()
	h.nextSub++
	id := h.nextSub
	h.subs = append(h.subs[:len(h.subs):len(h.subs)], hostSub{id: id, fn: fn})
	return func() {
		h.emitMu.Lock()
		defer h.emitMu.Unlock()
		for i, s := range h.subs {
			if s.id == id {
				h.subs = append(h.subs[:i:i], h.subs[i+1:]...)
				return
			}
		}
	}
}

// SubscribeAll calls fn with every event of every session of the host, the
// ones in the background too, with the id of the session it belongs to; fn
// must return quickly and must not call the host.
func (h *Host) SubscribeAll(fn func(sessionID string, ev agent.Event)) (unsubscribe func()) {
	h.allMu.Lock()
	defer h.allMu.Unlock()
	if h.allSubs == nil {
		h.allSubs = map[int]func(string, agent.Event){}
	}
	h.nextAll++
	id := h.nextAll
	h.allSubs[id] = fn
	return func() {
		h.allMu.Lock()
		defer h.allMu.Unlock()
		delete(h.allSubs, id)
	}
}

func (h *Host) deliverAll(sessionID string, ev agent.Event) {
	h.allMu.Lock()
	defer h.allMu.Unlock()
	for _, fn := range h.allSubs {
		fn(sessionID, ev)
	}
}

// SubscribeNotices calls fn with the current session's notices and every
// session's save failures (see Runtime.SubscribeNotices).
func (h *Host) SubscribeNotices(fn func(Notice)) (unsubscribe func()) {
	return h.notices.subscribe(fn)
}

// Background lists the sessions running in the background, oldest first.
func (h *Host) Background() []BackgroundRun {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.backgroundRuns()
}
