package runner

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/steer-tui/steer/agent"
)

// The host's own annotations, delivered to its subscribers among the
// current session's events (never saved, never sent to a provider).
const (
	// AnnotationSessionLoaded: the host's current session changed (a
	// switch, a new session); Data is a SessionLoaded. Every event after it
	// is of that session and follows from its snapshot.
	AnnotationSessionLoaded = "session_loaded"
	// AnnotationBackgroundRuns: the sessions running in the background
	// changed; Data is a []BackgroundRun (empty when none is left).
	AnnotationBackgroundRuns = "background_runs"
)

// SessionLoaded is the snapshot a front end shows after a switch: the
// session's state, the approval requests its run waits on, and where its
// sub-agents stand.
type SessionLoaded struct {
	State     State
	Approvals []ApprovalRequest
	// Subagents are the latest progress of the session's sub-agents.
	Subagents []SubagentProgress
	// Subagent says that the session is a running sub-agent's, shown
	// read-only (input is refused with ErrSubagentSession).
	Subagent bool
}

// BackgroundRun is a session whose run goes on while another is current.
type BackgroundRun struct {
	SessionID string
	// Title is the start of the session's first prompt.
	Title string
	// Since is when the user switched away from it.
	Since time.Time
	// Approvals counts its tool calls waiting for the user's answer.
	Approvals int
}

// backgroundTitleMax bounds a BackgroundRun's title, in runes.
const backgroundTitleMax = 40

// Host is a front end's runtime over the sessions of one process: the
// current session, which takes the user's input and whose events reach the
// host's subscribers, and the sessions whose runs go on in the background
// after the user switched away (SPEC §7: several sessions run at once).
// Each session has a Runtime of its own; they share the lanes (so
// agent.maxConcurrent holds across them), the auth ledger and the store.
// A background session's events are saved as they happen; when its run
// ends, its Runtime lets the session go (another steer may open it) and
// waits, idle, to serve a later switch.
type Host struct {
	*currentSession // Steer, Prompt, SetModel, Profiles… of the current session (host_current.go)
	*hostFeed       // Subscribe, SubscribeAll, SubscribeNotices (host_events.go)
	*watchGroup     // the goroutines the runtimes' events start
	*everySession   // AbortWith, WaitForIdle over all the sessions (host_all.go)
	*fileIndexes    // FileIndex, Attach: @-mentions (host_mentions.go)

	first *Runtime // made by New with the process's options; owns the lanes
	now   func() time.Time

	// switchMu serialises the changes of the current session (switches,
	// new sessions, a background run's retirement), which load and let go
	// of sessions in the database; mu guards the fields below and is never
	// held across database IO, so that reads (Current, Background, input)
	// answer at once while a switch loads a session.
	switchMu   sync.Mutex
	mu         sync.Mutex
	current    *Runtime
	background map[*Runtime]time.Time // running, not current → since when
	spares     []*Runtime             // idle, holding no session
	all        []*Runtime
	children   map[*Runtime]*childWatcher
	detach     func()
}

// watchGroup runs the work the runtimes' events start off their event
// path, and lets Close wait for it. It calls nothing.
type watchGroup struct {
	watchMu  sync.Mutex     // guards closing, and Adds to watchers
	closing  bool           // Close has begun: no more watchers
	watchers sync.WaitGroup // goroutines started by the runtimes' events
}

// NewHost makes rt the host's current session. The host takes rt over:
// close the host, not rt.
func NewHost(rt *Runtime) *Host {
	h := &Host{first: rt, now: rt.opts.Now, background: map[*Runtime]time.Time{}, hostFeed: &hostFeed{}, watchGroup: &watchGroup{}}
	h.currentSession = &currentSession{current: h.Current, input: h.input, first: rt}
	h.everySession = &everySession{runtimes: h.runtimes}
	h.fileIndexes = &fileIndexes{workspace: h.Workspace}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.adopt(rt)
	h.current = rt
	h.attach(rt)
	return h
}

// adopt watches rt's runs and passes its notices on; h.mu is held.
func (h *Host) adopt(rt *Runtime) {
	h.all = append(h.all, rt)
	rt.answersChildren.Store(true)
	rt.Subscribe(func(ev agent.Event) { h.watch(rt, ev) })
	rt.Subscribe(func(ev agent.Event) { h.deliverAll(rt.SessionID(), ev) })
	h.watchChildren(rt)
	rt.SubscribeNotices(func(n Notice) {
		h.emitMu.Lock()
		current := h.attached == rt
		h.emitMu.Unlock()
		// A background session's failed save must not go unseen.
		if current || n.Kind == NoticePersistError || n.Kind == NoticePersistRecovered {
			h.notices.deliver(n)
		}
	})
}

// watch follows the events that change what the background badge says. It
// runs on rt's event path, where h.mu may not be taken (a switch holds it
// while it attaches), so the work is done off it.
func (h *Host) watch(rt *Runtime, ev agent.Event) {
	switch e := ev.(type) {
	case agent.AgentEnd:
		h.goWatch(func() { h.retire(rt) })
	case agent.Annotation:
		if e.Kind == AnnotationApprovalRequest || e.Kind == AnnotationApprovalResolved {
			h.goWatch(func() {
				h.mu.Lock()
				defer h.mu.Unlock()
				if _, ok := h.background[rt]; ok {
					h.announceBackground()
				}
			})
		}
	}
}

// goWatch runs f on a goroutine of its own, which Close waits for; once
// Close has begun, f is not run.
func (g *watchGroup) goWatch(f func()) {
	g.watchMu.Lock()
	defer g.watchMu.Unlock()
	if g.closing {
		return
	}
	g.watchers.Add(1)
	go func() {
		defer g.watchers.Done()
		f()
	}()
}

// retire lets the session of a background run that ended go: its saves
// are flushed, its claim released, and its runtime kept as a spare.
func (h *Host) retire(rt *Runtime) {
	if err := rt.WaitForIdle(rt.writes.ctx); err != nil {
		return // closing
	}
	h.switchMu.Lock()
	defer h.switchMu.Unlock()
	h.mu.Lock()
	_, ok := h.background[rt]
	if ok && !rt.agent.Running() {
		delete(h.background, rt)
	}
	h.mu.Unlock()
	if ok && !rt.agent.Running() {
		h.setAside(rt)
		h.mu.Lock()
		defer h.mu.Unlock()
		h.announceBackground()
	}
}

// setAside takes a runtime the user switched away from out of view: a
// running one goes on in the background, an idle one lets its session go
// (database IO, outside h.mu) and becomes a spare. h.switchMu is held, h.mu
// is not.
func (h *Host) setAside(rt *Runtime) {
	h.mu.Lock()
	owned := h.owns(rt)
	h.mu.Unlock()
	if !owned { // a sub-agent's, shown: its parent goes on with it
		return
	}
	var err error
	if !rt.agent.Running() {
		err = rt.NewSession(rt.writes.ctx) // within the runtime's lifetime, as a switch away always was
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case rt.agent.Running() || errors.Is(err, agent.ErrBusy): // an input started a run meanwhile
		h.background[rt] = h.now()
	case err == nil:
		h.spares = append(h.spares, rt)
	default:
		// Not a spare: it may still hold its session, which closing it
		// lets go.
		rt.log.Warn("letting a session go failed", "session", rt.SessionID(), "error", err)
		if rt == h.first { // it publishes the lanes the others share: Close ends it last
			return
		}
		h.all = slices.DeleteFunc(h.all, func(r *Runtime) bool { return r == rt })
		h.goWatch(func() {
			ctx, cancel := context.WithTimeout(context.Background(), QuitWait)
			defer cancel()
			_ = rt.Close(ctx)
		})
	}
}

// Current is the runtime of the current session.
func (h *Host) Current() *Runtime {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.current
}

// runningChild is the runtime of session id when it is a running
// sub-agent's of one of the host's sessions (it has a writer here already).
// h.mu is held.
func (h *Host) runningChild(id string) *Runtime {
	for _, rt := range h.all {
		if c := rt.subs.child(id); c != nil {
			return c
		}
	}
	return nil
}

// owns reports whether rt is one of the host's runtimes, not a sub-agent's
// shown. h.mu is held.
func (h *Host) owns(rt *Runtime) bool {
	for _, r := range h.all {
		if r == rt {
			return true
		}
	}
	return false
}

// ErrSubagentSession refuses input to a sub-agent's session, which answers
// its parent and takes no input of its own.
var ErrSubagentSession = errors.New("this is a sub-agent's session: it takes no input and answers its parent (/sessions switches back)")

// input is the current runtime when it takes input.
func (h *Host) input() (*Runtime, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.owns(h.current) {
		return nil, ErrSubagentSession
	}
	return h.current, nil
}

// ApproveIn answers the approval request of tool call id in session
// sessionID ("" for the current session's own run): a sub-agent's, the
// current session's or a background one's.
func (h *Host) ApproveIn(sessionID, id string, d ApprovalDecision) error {
	h.mu.Lock()
	rt := h.current
	if sessionID != "" {
		rt = h.session(sessionID)
	}
	h.mu.Unlock()
	if rt == nil {
		return fmt.Errorf("session %s is not open here", sessionID)
	}
	return rt.Approve(id, d)
}

// DequeueIn takes queued items of session sessionID back (see Dequeue), if
// the host still has it open: a front end acting on the session it shows
// never takes the items of one it has switched to since.
func (h *Host) DequeueIn(ctx context.Context, sessionID, id string) ([]agent.QueueItem, error) {
	h.mu.Lock()
	rt := h.session(sessionID)
	h.mu.Unlock()
	if rt == nil {
		return nil, fmt.Errorf("session %s is not open here any more", sessionID)
	}
	return rt.DequeueIn(ctx, sessionID, id)
}

// AbortSession aborts the run of session id, current, in the background
// or a sub-agent's, on the user's behalf; false when no run of it is active
// here.
func (h *Host) AbortSession(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	rt := h.session(id)
	if rt == nil || !rt.agent.Running() {
		return false
	}
	rt.Abort()
	return true
}

// session is the runtime of session id: one of the host's, or a running
// sub-agent's; nil when the host has it open nowhere. h.mu is held.
func (h *Host) session(id string) *Runtime {
	for _, r := range h.all {
		if r.SessionID() == id {
			return r
		}
	}
	return h.runningChild(id)
}

// runtimes is a copy of every runtime of the host, to call outside h.mu.
func (h *Host) runtimes() []*Runtime {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.all)
}

// Close closes every runtime of the host, the first last (it owns the
// lanes the others share). Call it once every run has ended.
func (h *Host) Close(ctx context.Context) error {
	h.endWatches()
	h.closeAll()
	all := h.runtimes()
	var errs []error
	for i := len(all) - 1; i >= 0; i-- {
		errs = append(errs, all[i].Close(ctx))
	}
	h.watchers.Wait()
	return errors.Join(errs...)
}

// endWatches starts no more watchers: Close has begun.
func (g *watchGroup) endWatches() {
	g.watchMu.Lock()
	defer g.watchMu.Unlock()
	g.closing = true
}
