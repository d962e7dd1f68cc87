package runner

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/persistence"
)

// Sub-agents (SPEC §7): the task tool starts a child agent in a session of
// its own (the sub-agent lane) and returns at once; while a child runs, its
// parent's run does not end, and the child's answer reaches that same run
// as steering through the leased steering queue: lease, inject, ack once
// the message is stored, or release at once when an abort kept it out
// (S47); a lease a crash left behind is taken again by a run once it is
// older than persistence.StaleLease.

// TaskToolName is the sub-agent tool's name.
const TaskToolName = "task"

// leasePrefix marks the message that carries leased results: its queue
// item id is leasePrefix + the lease id, acknowledged when it is stored.
const leasePrefix = "lease:"

// heldPrefix marks the message that carries answers kept in memory (no
// database): its queue item id is heldPrefix + a key of subagents.held, so
// that an abort can give those answers back.
const heldPrefix = "answers:"

// TaskDetails are the details of a task call's result: the child's session.
type TaskDetails struct {
	SessionID string `json:"sessionId"`
}

// subagents are a runtime's children under way and their answers not yet
// delivered: the task tool starts them, and the runtime's agent reads them
// as its agent.Pending (subagents_answers.go). It reaches its parent only
// through subagentDeps; its children are runtimes of their own, which it
// prompts, waits for, aborts and closes.
type subagents struct {
	deps subagentDeps

	mu       sync.Mutex
	children map[*Runtime]bool
	wake     chan struct{} // a child ended
	// awaiting counts the goroutines that hand children's answers over.
	awaiting sync.WaitGroup
	// mem holds the answers when there is no database to lease them from.
	mem []string
	// leases are the items of each lease handed to the agent, until the
	// message carrying them is stored.
	leases map[string][]string
	// held are the answers from mem handed to the agent, by message, until
	// the message is stored or given back.
	held map[string][]string
	// subs get the events of every child, with the child's session id.
	subs []func(sessionID string, ev agent.Event)
	// stored says the database may hold answers for this session: at
	// first (a crash may have left some), after each delivery, until a
	// Poll finds none. It spares every drain point a write transaction.
	stored bool

	// takenHook, set only by tests, runs in Poll once it took answers
	// (leased, or from memory), before they reach the run: a test aborts
	// the run right there.
	takenHook func()
}

// subagentDeps is what the sub-agents read of their parent.
type subagentDeps struct {
	store  *persistence.Store // nil: answers wait in memory
	writes *writes            // the parent's: its ctx bounds the steering writes
	log    *slog.Logger
	now    func() time.Time
	// sessionID is the parent's current session, whose run the answers
	// reach.
	sessionID func() string
	// spawn builds a child's runtime in a new session (Runtime.newChild);
	// parentID is the parent's session, saved first.
	spawn func(ctx context.Context) (child *Runtime, parentID string, err error)
}

func newSubagents(deps subagentDeps) *subagents {
	return &subagents{deps: deps, children: map[*Runtime]bool{}, wake: make(chan struct{}, 1),
		leases: map[string][]string{}, held: map[string][]string{}, stored: true}
}

// start runs task in a new child session and returns the session's id.
func (s *subagents) start(ctx context.Context, task string) (string, error) {
	child, parentID, err := s.deps.spawn(ctx)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	s.children[child] = true
	subs := make([]func(string, agent.Event), len(s.subs))
	copy(subs, s.subs)
	s.mu.Unlock()
	child.Subscribe(func(ev agent.Event) {
		for _, fn := range subs {
			fn(child.SessionID(), ev)
		}
	})
	if err := child.Prompt(ctx, task); err != nil {
		s.forget(child)
		_ = child.Close(ctx) // the run's: a quit does not wait on it
		return "", err
	}
	id := child.SessionID()
	s.awaiting.Add(1)
	go s.await(child, parentID)
	return id, nil
}

// await waits for a child's run to end and hands its answer to the parent.
func (s *subagents) await(child *Runtime, parentID string) {
	defer s.awaiting.Done()
	_ = child.WaitForIdle(context.Background())
	answer := childAnswer(child)
	text := fmt.Sprintf("[sub-agent %s] %s", child.SessionID(), answer)
	if err := s.deliver(parentID, child.SessionID(), text); err != nil {
		s.deps.log.Error("a sub-agent's answer could not be saved for its parent", "child", child.SessionID(), "error", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), QuitWait)
	defer cancel()
	if err := child.Close(ctx); err != nil {
		s.deps.log.Warn("closing a sub-agent failed", "child", child.SessionID(), "error", err)
	}
	s.forget(child)
}

// childAnswer is what a finished child said last, or why it failed.
func childAnswer(child *Runtime) string {
	msgs := child.State().Messages
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Role != agent.RoleAssistant {
			continue
		}
		switch m.StopReason {
		case agent.StopReasonError:
			return "failed: " + m.ErrorMessage
		case agent.StopReasonAborted:
			return "stopped: " + m.ErrorMessage
		}
		if text := strings.TrimSpace(m.TextContent()); text != "" {
			return text
		}
	}
	return "(no answer)"
}

// deliver queues an answer for the parent's run: durable in the database,
// in memory without one. The answer is queued before the child counts as
// done, so a parent that sees no child left finds it.
func (s *subagents) deliver(parentID, childID, text string) error {
	if s.deps.store == nil {
		s.mu.Lock()
		s.mem = append(s.mem, text)
		s.mu.Unlock()
		return nil
	}
	err := s.deps.store.EnqueueSteering(s.deps.writes.ctx, persistence.SteeringItem{ID: newID("st_"), SessionID: parentID, Source: childID, Text: text})
	s.mu.Lock()
	s.stored = true
	s.mu.Unlock()
	return err
}

func (s *subagents) forget(child *Runtime) {
	s.mu.Lock()
	delete(s.children, child)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// child is the running child of session id, or nil.
func (s *subagents) child(id string) *Runtime {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.children {
		if c.SessionID() == id {
			return c
		}
	}
	return nil
}

// childApprovals lists what the running children wait to be answered.
func (s *subagents) childApprovals() []ApprovalRequest {
	s.mu.Lock()
	children := make([]*Runtime, 0, len(s.children))
	for c := range s.children {
		children = append(children, c)
	}
	s.mu.Unlock()
	var out []ApprovalRequest
	for _, c := range children {
		out = append(out, c.PendingApprovals()...)
	}
	return out
}

// childIDs names the sessions of the running children.
func (s *subagents) childIDs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := make([]string, 0, len(s.children))
	for c := range s.children {
		ids = append(ids, c.SessionID())
	}
	return ids
}

// all is the running children.
func (s *subagents) all() []*Runtime {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Runtime, 0, len(s.children))
	for c := range s.children {
		out = append(out, c)
	}
	return out
}

func (s *subagents) running() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.children)
}

// Wait blocks, when the parent's run would end, while children run, and
// returns their answers as they come; nil when no child is left (or ctx
// ended, which aborts the children too).
func (s *subagents) Wait(ctx context.Context) []agent.Message {
	for {
		left := s.running() // before Poll: an answer is queued before its child is forgotten
		if msgs := s.Poll(); len(msgs) > 0 {
			return msgs
		}
		if left == 0 {
			return nil
		}
		select {
		case <-s.wake:
		case <-ctx.Done():
			s.abortChildren(agent.AbortReason(ctx))
			return nil
		}
	}
}

// wait waits (until ctx ends) for the answers of children under way to be
// handed over and the children closed.
func (s *subagents) wait(ctx context.Context) { waitOrDone(ctx, &s.awaiting) }

// abortChildren stops every child with the parent's reason.
func (s *subagents) abortChildren(reason string) {
	s.mu.Lock()
	children := make([]*Runtime, 0, len(s.children))
	for c := range s.children {
		children = append(children, c)
	}
	s.mu.Unlock()
	for _, c := range children {
		c.AbortWith(reason)
	}
}

// SubscribeChildren calls fn with every event of every sub-agent this
// runtime starts from now on, with the child's session id (steer run
// --json prints them).
func (r *Runtime) SubscribeChildren(fn func(sessionID string, ev agent.Event)) { r.subs.subscribe(fn) }

// subscribe adds fn to the subscribers of the children started from now on.
func (s *subagents) subscribe(fn func(sessionID string, ev agent.Event)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.subs = append(s.subs, fn)
}

// newChild builds a sub-agent's runtime: a new session of this one's, with
// the tools without task, in the sub-agent lane of this one's scheduler.
func (r *Runtime) newChild(ctx context.Context) (*Runtime, string, error) {
	parentID, err := r.ensureSession(r.writes.ctx)
	if err != nil {
		return nil, "", err
	}
	opts := r.opts
	opts.Tools, opts.ToolsFor = r.baseTools, nil
	opts.Session, opts.Continue = "", false
	opts.Lanes, opts.SubAgent, opts.ParentSession = r.sched, true, parentID
	// A host's front end answers a child's approvals (they reach it among
	// the child's progress); otherwise nobody does, and "ask" refuses what
	// would ask.
	opts.Interactive = r.answersChildren.Load()
	opts.ProjectContext = nil // the parent's system prompt has it already
	child, err := New(ctx, opts)
	if err != nil {
		return nil, "", err
	}
	child.lanesOwner = r.lanesOwner // the child's runs show in the published lanes
	return child, parentID, nil
}

func firstLine(s string) string { return firstLineOf(s, 80) }

// firstLineOf is the first line of s, cut to max runes.
func firstLineOf(s string, max int) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

// loaded notes that a saved session became current: the database may
// hold answers for it.
func (s *subagents) loaded() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stored = true
}
