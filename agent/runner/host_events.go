package runner

import (
	"sync"

	"github.com/steer-tui/steer/agent"
)

// How the host's subscribers hear of its sessions: the current session's
// events, opening with its snapshot, the background badge, every session's
// events for SubscribeAll, and the notices.

// hostFeed is the host's subscribers and the order they hear things in:
// the current session's events and the host's annotations (Subscribe),
// every session's events (SubscribeAll) and the notices. The host attaches
// the runtime whose events it delivers; the feed calls nothing.
type hostFeed struct {
	emitMu   sync.Mutex // serialises deliveries to subscribers; guards below
	attached *Runtime   // whose events are delivered
	subs     []hostSub
	nextSub  int
	notices  notices

	allMu   sync.Mutex // serialises deliveries to SubscribeAll's subscribers
	allSubs map[int]func(sessionID string, ev agent.Event)
	nextAll int
}

type hostSub struct {
	id int
	fn agent.Subscriber
}

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

func (f *hostFeed) deliverLocked(ev agent.Event) {
	for _, s := range f.subs {
		s.fn(ev)
	}
}

// Subscribe calls fn with every event of the current session, in order,
// and with the host's annotations (AnnotationSessionLoaded when the current
// session changes, AnnotationBackgroundRuns); fn must return quickly and
// must not call the host.
func (f *hostFeed) Subscribe(fn agent.Subscriber) (unsubscribe func()) {
	f.emitMu.Lock()
	defer f.emitMu.Unlock()
	f.nextSub++
	id := f.nextSub
	f.subs = append(f.subs[:len(f.subs):len(f.subs)], hostSub{id: id, fn: fn})
	return func() {
		f.emitMu.Lock()
		defer f.emitMu.Unlock()
		for i, s := range f.subs {
			if s.id == id {
				f.subs = append(f.subs[:i:i], f.subs[i+1:]...)
				return
			}
		}
	}
}

// SubscribeAll calls fn with every event of every session of the host, the
// ones in the background too, with the id of the session it belongs to; fn
// must return quickly and must not call the host.
func (f *hostFeed) SubscribeAll(fn func(sessionID string, ev agent.Event)) (unsubscribe func()) {
	f.allMu.Lock()
	defer f.allMu.Unlock()
	if f.allSubs == nil {
		f.allSubs = map[int]func(string, agent.Event){}
	}
	f.nextAll++
	id := f.nextAll
	f.allSubs[id] = fn
	return func() {
		f.allMu.Lock()
		defer f.allMu.Unlock()
		delete(f.allSubs, id)
	}
}

func (f *hostFeed) deliverAll(sessionID string, ev agent.Event) {
	f.allMu.Lock()
	defer f.allMu.Unlock()
	for _, fn := range f.allSubs {
		fn(sessionID, ev)
	}
}

// SubscribeNotices calls fn with the current session's notices and every
// session's save failures (see Runtime.SubscribeNotices).
func (f *hostFeed) SubscribeNotices(fn func(Notice)) (unsubscribe func()) {
	return f.notices.subscribe(fn)
}

// Background lists the sessions running in the background, oldest first.
func (h *Host) Background() []BackgroundRun {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.backgroundRuns()
}
