package agent

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// subscriberPanicked begins the errorMessage of a run failed by a panicking
// subscriber.
const subscriberPanicked = "a subscriber panicked: "

// ErrBusy is returned when a run is asked to start while one is active.
var ErrBusy = errors.New("the agent is already running; steer or queue a follow-up instead")

// ErrCannotContinue is returned by Continue when the transcript is empty or
// already ends with an assistant message. (seed)
var ErrCannotContinue = errors.New("nothing to continue: the transcript is empty or ends with an assistant message")

// Config is what an Agent starts with. Stream is required.
type Config struct {
	Model        Model
	Stream       StreamFn
	SystemPrompt string
	Tools        *ToolSet
	Thinking     ThinkingLevel
	// SteeringMode and FollowUpMode default to QueueOneAtATime.
	SteeringMode QueueMode
	FollowUpMode QueueMode
	// Messages is the transcript to start from.
	Messages []Message
	// Now stamps messages and queue items; it defaults to time.Now.
	Now func() time.Time
	// NewItemID names queue items; it defaults to NewQueueItemID.
	NewItemID func() string
	// ToolAbortGrace defaults to DefaultToolAbortGrace.
	ToolAbortGrace time.Duration
	// Pending, when set, brings input from outside the queues into runs
	// (sub-agent results).
	Pending Pending
	// BeforeStop, when set, is LoopConfig.BeforeStop of every run.
	BeforeStop BeforeStop
}

// Subscriber receives every event of the agent. The contract:
//
//   - Goroutine: subscribers are called one at a time, never concurrently:
//     a run's events on the run's goroutine, a queue change's QueueUpdate on
//     the goroutine of the call that made it (Steer, FollowUp, Enqueue,
//     Deliver, Dequeue, ClearQueues, Reset).
//   - Order: every event, none dropped, in the order the agent produced it;
//     each event goes to the subscribers in the order they subscribed, and
//     State already includes it.
//   - Slowness: the loop does not wait. It goes on streaming and running
//     tools while the run's events wait, in memory and without limit, for the
//     subscribers. A slow subscriber delays the subscribers after it, State
//     (which advances as events are delivered), the agent becoming idle
//     (WaitForIdle returns only after every subscriber has returned from
//     agent_end, and a run revived by queued input starts only then), and
//     the calls that emit a QueueUpdate, which wait for their turn. One
//     blocked for good holds all of these for good.
//   - Panics: a panic is recovered, the other subscribers still get the
//     event, and the active run fails: its loop, if still going, is cancelled
//     and ends with the failure tail (message_start and message_end of an
//     error message whose errorMessage is "a subscriber panicked: …",
//     turn_end, agent_end); queued input stays queued and the agent goes
//     idle. A panic while no run is active goes no further.
//   - Re-entry: it must not call the methods that emit (those above), nor
//     WaitForIdle: each would wait for the subscriber itself.
type Subscriber func(Event)

// State is a read-only snapshot of an Agent.
type State struct {
	Messages     []Message
	Streaming    *Message // the assistant message being streamed, if any
	Running      bool
	Model        Model
	Thinking     ThinkingLevel
	SteeringMode QueueMode
	FollowUpMode QueueMode
	Queue        []QueueItem // steering items first, then follow-ups
}

// Agent owns a transcript, its two pending queues, the active run and the
// subscribers. Its methods are safe for concurrent use.
type Agent struct {
	mu        sync.Mutex
	cfg       Config
	messages  []Message
	streaming Message // the assistant message being streamed; Role is empty when none
	steering  pendingQueue
	followUps pendingQueue
	drained   map[string]QueueItem // items taken from a queue whose message has not started yet
	// queueChanged asks dispatch to announce the queue with the next event.
	queueChanged bool
	running      bool
	cancel       context.CancelCauseFunc
	// interruptID is the interrupt input that aborted the active run and
	// starts the next one.
	interruptID string
	idle        chan struct{} // closed while no run is active
	// started says that the subscribers have seen the run's agent_start and
	// not yet its agent_end: running as the events tell it (Attach).
	started bool

	// deliverHook, set only by tests, runs in Deliver after it has queued an
	// item for the active run, with the lock released, so that a test can end
	// the run right there.
	deliverHook func()

	emitMu  sync.Mutex     // serialises subscriber calls
	subs    []subscription // replaced, never modified, so readers need no copy
	nextSub int
}

type subscription struct {
	id int
	fn Subscriber
}

// New returns an idle agent.
func New(cfg Config) *Agent {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.NewItemID == nil {
		cfg.NewItemID = NewQueueItemID
	}
	if cfg.SteeringMode == "" {
		cfg.SteeringMode = QueueOneAtATime
	}
	if cfg.FollowUpMode == "" {
		cfg.FollowUpMode = QueueOneAtATime
	}
	idle := make(chan struct{})
	close(idle)
	a := &Agent{
		cfg:       cfg,
		messages:  append([]Message(nil), cfg.Messages...),
		steering:  pendingQueue{mode: cfg.SteeringMode},
		followUps: pendingQueue{mode: cfg.FollowUpMode},
		drained:   map[string]QueueItem{},
		idle:      idle,
	}
	return a
}

// Prompt starts a run with a user message of text (and images). It returns at
// once; events report the run. It fails with ErrBusy while a run is active.
func (a *Agent) Prompt(text string, images ...Content) error {
	msg := UserMessage(text, a.cfg.Now())
	msg.Content = append(msg.Content, images...)
	return a.PromptMessages(msg)
}

// PromptMessages starts a run with the given messages.
func (a *Agent) PromptMessages(msgs ...Message) error { return a.start(msgs, false) }

// Continue starts a run from the transcript as it is: it needs a non-empty
// transcript that does not end with an assistant message. (seed)
func (a *Agent) Continue() error { return a.start(nil, true) }

func (a *Agent) start(prompts []Message, continuing bool) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.running {
		return ErrBusy
	}
	if continuing {
		n := len(a.messages)
		if n == 0 || a.messages[n-1].Role == RoleAssistant {
			return ErrCannotContinue
		}
	}
	a.startLocked(prompts, false)
	return nil
}

// startLocked starts a run with prompts; fromQueue says they were drained
// from the pending queues.
func (a *Agent) startLocked(prompts []Message, fromQueue bool) {
	a.running, a.idle = true, make(chan struct{})
	go a.run(a.runContextLocked(), a.loopConfigLocked(fromQueue), append([]Message(nil), a.messages...), prompts)
}

// runContextLocked is the context of a new run, which Abort cancels.
func (a *Agent) runContextLocked() context.Context {
	ctx, cancel := context.WithCancelCause(context.Background())
	a.cancel = cancel
	return ctx
}

// loopConfigLocked is the configuration of one Loop. A loop whose prompts were
// drained from the queues has had its first drain point: polling steering
// again before its first request would give that request a second item.
func (a *Agent) loopConfigLocked(fromQueue bool) LoopConfig {
	skipPoll := fromQueue
	return LoopConfig{
		Model:        a.cfg.Model,
		Stream:       a.cfg.Stream,
		SystemPrompt: a.cfg.SystemPrompt,
		Tools:        a.cfg.Tools,
		Options:      StreamOptions{Thinking: a.cfg.Thinking},
		PollSteering: func() []Message { // called on the loop's goroutine only
			if skipPoll {
				skipPoll = false
				return nil
			}
			return a.drain(&a.steering)
		},
		PollFollowUps:  func() []Message { return a.drain(&a.followUps) },
		Unpoll:         a.unpoll,
		Pending:        a.cfg.Pending,
		BeforeStop:     a.cfg.BeforeStop,
		Current:        a.current,
		CurrentTools:   a.Tools,
		Now:            a.cfg.Now,
		ToolAbortGrace: a.cfg.ToolAbortGrace,
	}
}

// run drives runs until no pending input is left: an input queued after the
// last drain point of a run, as that run ended, starts the next one rather than
// waiting unseen, and so does the interrupt that aborted it. The decision and
// the end of the run share one critical section, so input is either drained
// here or finds the agent idle.
func (a *Agent) run(ctx context.Context, cfg LoopConfig, history, prompts []Message) {
	for {
		stream := Loop(ctx, history, prompts, cfg)
		for ev := range stream.Events() {
			a.dispatch(ev)
		}
		a.mu.Lock()
		prompts = nil
		if ctx.Err() == nil {
			prompts = a.nextLocked()
		} else if it, ok := a.takeInterruptLocked(); ok {
			a.cancel(nil)
			ctx = a.runContextLocked()
			prompts = []Message{it.message(a.cfg.Now())}
		}
		if len(prompts) > 0 {
			history = append([]Message(nil), a.messages...)
			cfg = a.loopConfigLocked(true)
			a.mu.Unlock()
			continue
		}
		a.running, a.streaming = false, Message{}
		a.cancel(nil)
		close(a.idle)
		a.mu.Unlock()
		return
	}
}

// current is what the next request uses: the model, its stream and options,
// as SetModel and SetThinking last left them.
// Tools is the tool set the next request offers (SetTools's last).
func (a *Agent) Tools() *ToolSet {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.cfg.Tools
}

func (a *Agent) current() (Model, StreamFn, StreamOptions) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.cfg.Model, a.cfg.Stream, StreamOptions{Thinking: a.cfg.Thinking}
}

// dispatch folds ev into the state, then hands it to every subscriber. An
// injected queue item leaves the queue display as its message starts; items
// given back by an abort reappear before the run's next event.
func (a *Agent) dispatch(ev Event) {
	a.emitMu.Lock()
	defer a.emitMu.Unlock()
	a.mu.Lock()
	a.fold(ev)
	subs := a.subs
	var queue *QueueUpdate
	if ms, ok := ev.(MessageStart); ok && a.isDrained(ms.Message.QueueItemID) {
		delete(a.drained, ms.Message.QueueItemID)
		a.queueChanged = true
	}
	if a.queueChanged {
		a.queueChanged = false
		queue = &QueueUpdate{Items: a.queueLocked()}
	}
	a.mu.Unlock()
	if queue != nil {
		a.notify(subs, *queue)
	}
	a.notify(subs, ev)
}

// notify hands ev to every subscriber in order. A panic is recovered, so that
// the others still get ev and the process lives on, and fails the active run
// (see Subscriber).
func (a *Agent) notify(subs []subscription, ev Event) {
	for _, s := range subs {
		a.call(s.fn, ev)
	}
}

func (a *Agent) call(fn Subscriber, ev Event) {
	defer func() {
		if r := recover(); r != nil {
			a.stop(&AbortError{Reason: fmt.Sprintf("%s%v", subscriberPanicked, r), Fault: true})
		}
	}()
	fn(ev)
}

func (a *Agent) fold(ev Event) {
	switch e := ev.(type) {
	case AgentStart:
		a.started = true
	case AgentEnd:
		a.started = false
	case MessageStart:
		if e.Message.Role == RoleAssistant {
			a.streaming = e.Message
		}
	case MessageUpdate:
		a.streaming = e.Message
	case MessageEnd:
		if e.Message.Role == RoleAssistant {
			a.streaming = Message{}
		}
		a.messages = append(a.messages, e.Message)
	case ContextReplaced:
		a.messages = append([]Message(nil), e.Messages...)
	}
}

func (a *Agent) emitQueue() {
	a.emitMu.Lock()
	defer a.emitMu.Unlock()
	a.mu.Lock()
	ev := QueueUpdate{Items: a.queueLocked()}
	subs := a.subs
	a.mu.Unlock()
	a.notify(subs, ev)
}

// Abort cancels the active run on the user's behalf: the stream and the tools
// are cancelled and the run ends with the aborted marker. Queued items are
// kept.
func (a *Agent) Abort() { a.AbortWith(AbortedMessage) }

// AbortWith is Abort with the reason the aborted marker records (a timeout,
// a quit, a signal). The first reason given to a run is the one it keeps.
func (a *Agent) AbortWith(reason string) {
	a.stop(&AbortError{Reason: reason})
}

// stop cancels the active run, if any, with cause; a run keeps its first.
// An abort after an interrupt stops the interrupt from starting the next
// run: the user said stop, and the interrupt stays queued as steering.
func (a *Agent) stop(cause *AbortError) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.running {
		a.cancel(cause)
		a.interruptID = ""
	}
}

// WaitForIdle returns once no run is active and every subscriber has seen the
// last run's agent_end, or with ctx's error.
func (a *Agent) WaitForIdle(ctx context.Context) error {
	a.mu.Lock()
	idle := a.idle
	a.mu.Unlock()
	return WaitClosed(ctx, idle)
}

// WaitClosed waits until ch is closed, or returns ctx's error. A closed ch
// wins over an ended ctx: a caller whose deadline has passed still learns
// that the wait is over.
func WaitClosed(ctx context.Context, ch <-chan struct{}) error {
	select {
	case <-ch:
		return nil
	default:
	}
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Subscribe adds fn; the returned func removes it.
func (a *Agent) Subscribe(fn Subscriber) (unsubscribe func()) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.nextSub++
	id := a.nextSub
	a.subs = append(a.subs[:len(a.subs):len(a.subs)], subscription{id: id, fn: fn})
	return func() {
		a.mu.Lock()
		defer a.mu.Unlock()
		for i, s := range a.subs {
			if s.id == id {
				a.subs = append(a.subs[:i:i], a.subs[i+1:]...) // a new array: [:i:i] forces the copy
				return
			}
		}
	}
}

// Running reports whether a run is active; unlike State it copies nothing.
func (a *Agent) Running() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.running
}

// State returns a snapshot of the agent.
func (a *Agent) State() State {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := State{
		Messages:     append([]Message(nil), a.messages...),
		Running:      a.running,
		Model:        a.cfg.Model,
		Thinking:     a.cfg.Thinking,
		SteeringMode: a.steering.mode,
		FollowUpMode: a.followUps.mode,
		Queue:        a.queueLocked(),
	}
	if a.streaming.Role != "" {
		m := a.streaming
		s.Streaming = &m
	}
	return s
}

// SetModel switches the model (and the function that streams it) from the
// next request on.
func (a *Agent) SetModel(m Model, stream StreamFn) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.cfg.Model, a.cfg.Stream = m, stream
}

// SetThinking sets the thinking level from the next run on.
func (a *Agent) SetThinking(l ThinkingLevel) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.cfg.Thinking = l
}

// SetTools replaces the tools from the next request on (a new session gets
// a fresh approval gate; an MCP server's tools changed).
func (a *Agent) SetTools(set *ToolSet) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.cfg.Tools = set
}

// ReplaceMessages swaps the transcript, keeping the queues, and announces
// it to the subscribers as ContextReplaced (a compaction between runs). It
// fails with ErrBusy while a run is active.
func (a *Agent) ReplaceMessages(msgs []Message) error {
	a.emitMu.Lock()
	defer a.emitMu.Unlock()
	a.mu.Lock()
	if a.running {
		a.mu.Unlock()
		return ErrBusy
	}
	replaced := a.messages
	a.messages = append([]Message(nil), msgs...)
	subs := a.subs
	a.mu.Unlock()
	a.notify(subs, ContextReplaced{Messages: append([]Message(nil), msgs...), Replaced: replaced})
	return nil
}

// Announce hands an annotation the runtime makes between runs (a manual
// compaction's progress) to the subscribers. It fails with ErrBusy while a
// run is active: a run's annotations come from its StreamFn and tools.
func (a *Agent) Announce(ann Annotation) error {
	a.emitMu.Lock()
	defer a.emitMu.Unlock()
	a.mu.Lock()
	if a.running {
		a.mu.Unlock()
		return ErrBusy
	}
	subs := a.subs
	a.mu.Unlock()
	a.notify(subs, ann)
	return nil
}

// Reset swaps the transcript and empties both queues in one step, e.g. for a
// new or another session, and returns the items it dropped so that a UI can
// offer them back. It fails with ErrBusy while a run is active.
func (a *Agent) Reset(msgs []Message) ([]QueueItem, error) {
	a.mu.Lock()
	if a.running {
		a.mu.Unlock()
		return nil, ErrBusy
	}
	a.messages = append([]Message(nil), msgs...)
	dropped := a.queueLocked()
	a.steering.items, a.followUps.items = nil, nil
	a.mu.Unlock()
	if len(dropped) > 0 {
		a.emitQueue()
	}
	return dropped, nil
}
