package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/tools"
	"github.com/steer-tui/steer/lanes"
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
// delivered; the runtime's agent reads them as its agent.Pending.
type subagents struct {
	r *Runtime

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

func newSubagents(r *Runtime) *subagents {
	return &subagents{r: r, children: map[*Runtime]bool{}, wake: make(chan struct{}, 1),
		leases: map[string][]string{}, held: map[string][]string{}, stored: true}
}

// taskTool starts a sub-agent.
type taskTool struct{ s *subagents }

func (taskTool) Spec() agent.ToolSpec {
	return agent.ToolSpec{Name: TaskToolName,
		Description: "Delegate a self-contained task to a sub-agent that works in its own session with the same tools. " +
			"It returns at once with the sub-agent's session id; the sub-agent's final answer arrives later in this " +
			"conversation as a message, so do not wait or poll for it. Several task calls in one turn run in parallel.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"task":{"type":"string","description":"The complete instructions for the sub-agent: it sees nothing else of this conversation."}},"required":["task"],"additionalProperties":false}`)}
}

// Describe lets the approval gate run it without asking: starting a child
// changes nothing; the child's own tools are gated in its session.
func (taskTool) Describe(args map[string]any) tools.Access {
	task, _ := args["task"].(string)
	return tools.Access{Tool: TaskToolName, Summary: "delegate: " + firstLine(task)}
}

func (t taskTool) Execute(ctx context.Context, _ string, args map[string]any, _ agent.ToolUpdate) (agent.ToolResult, error) {
	task, _ := args["task"].(string)
	if strings.TrimSpace(task) == "" {
		return agent.ErrorResult("task is empty: give the sub-agent its complete instructions"), nil
	}
	id, err := t.s.start(ctx, task)
	if err != nil {
		return agent.ToolResult{}, fmt.Errorf("the sub-agent could not start: %w", err)
	}
	return agent.ToolResult{Content: []agent.Content{agent.Text(fmt.Sprintf(
		"Started a sub-agent in session %s. Its answer will arrive as a message when it finishes.", id))},
		Details: TaskDetails{SessionID: id}}, nil
}

// start runs task in a new child session and returns the session's id.
func (s *subagents) start(ctx context.Context, task string) (string, error) {
	parent := s.r
	parentID, err := parent.ensureSession(parent.writeCtx)
	if err != nil {
		return "", err
	}
	opts := parent.opts
	opts.Tools, opts.ToolsFor = parent.baseTools, nil
	opts.Session, opts.Continue = "", false
	opts.Lanes, opts.SubAgent, opts.ParentSession = parent.sched, true, parentID
	// A host's front end answers a child's approvals (they reach it among
	// the child's progress); otherwise nobody does, and "ask" refuses what
	// would ask.
	opts.Interactive = parent.answersChildren.Load()
	opts.ProjectContext = nil // the parent's system prompt has it already
	child, err := New(ctx, opts)
	if err != nil {
		return "", err
	}
	child.lanesOwner = parent.lanesOwner // the child's runs show in the published lanes
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
	if err := child.Prompt(task); err != nil {
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
		s.r.log.Error("a sub-agent's answer could not be saved for its parent", "child", child.SessionID(), "error", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), QuitWait)
	defer cancel()
	if err := child.Close(ctx); err != nil {
		s.r.log.Warn("closing a sub-agent failed", "child", child.SessionID(), "error", err)
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
	if s.r.store == nil {
		s.mu.Lock()
		s.mem = append(s.mem, text)
		s.mu.Unlock()
		return nil
	}
	err := s.r.store.EnqueueSteering(s.r.writeCtx, persistence.SteeringItem{ID: newID("st_"), SessionID: parentID, Source: childID, Text: text})
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

// Poll hands over the answers ready now, merged into one steering message
// that opens by saying they are runtime data, not user instructions.
func (s *subagents) Poll() []agent.Message {
	var texts, ids []string
	leaseID := ""
	if s.r.store == nil {
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
		id, items, err := s.r.store.LeaseSteering(s.r.writeCtx, s.r.SessionID())
		if err != nil {
			if !errors.Is(err, persistence.ErrNotFound) {
				s.r.log.Warn("leasing sub-agent answers failed", "error", err)
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
	msg := agent.UserMessage(prompt, s.r.opts.Now())
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
			if err := s.r.store.ReleaseSteering(s.r.writeCtx, leaseID); err != nil {
				// Its answers come back once the lease is stale.
				s.r.log.Warn("releasing sub-agent answers failed", "lease", leaseID, "error", err)
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
func (s *subagents) wait(ctx context.Context) {
	done := make(chan struct{})
	go func() {
		s.awaiting.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

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
	if !ok || !strings.HasPrefix(end.Message.QueueItemID, leasePrefix) || s.r.store == nil {
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
	store, ctx := s.r.store, s.r.writeCtx
	s.r.saver.add(saveJob{write: func(context.Context) error {
		if err := store.AckSteering(ctx, leaseID, ids...); err != nil {
			return err
		}
		return store.ReleaseSteering(ctx, leaseID)
	}, report: func(err error) { s.r.saved("acknowledging sub-agent answers", err) }})
}

// SubscribeChildren calls fn with every event of every sub-agent this
// runtime starts from now on, with the child's session id (steer run
// --json prints them).
func (r *Runtime) SubscribeChildren(fn func(sessionID string, ev agent.Event)) {
	r.subs.mu.Lock()
	defer r.subs.mu.Unlock()
	r.subs.subs = append(r.subs.subs, fn)
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
