package agent

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// AbortedMessage is the errorMessage of the assistant message that marks a
// run the user aborted (Esc, rpc abort); other reasons come from AbortWith.
const AbortedMessage = "aborted by the user"

// The provider contract breaches the loop cannot stream past: each ends the
// run as a loop failure (fail), with the same wording a recovered panic has.
var (
	errNoStream  = errors.New("the provider returned no stream")
	errNoMessage = errors.New("the provider ended without a message")
)

// DefaultToolAbortGrace is how long an aborted batch waits for its tools to
// return before it gives up on them and records them as aborted.
const DefaultToolAbortGrace = 3 * time.Second

// LoopConfig is what one run of the loop needs. Only Stream is required.
type LoopConfig struct {
	Model        Model
	Stream       StreamFn
	SystemPrompt string
	Tools        *ToolSet
	Options      StreamOptions

	// PollSteering and PollFollowUps return the pending messages to inject at a
	// drain point, or none. They are called on the loop's goroutine.
	PollSteering  func() []Message
	PollFollowUps func() []Message
	// Unpoll gives back messages PollSteering or PollFollowUps returned that
	// an abort kept from being injected, so that no queued input is lost.
	Unpoll func([]Message)
	// Pending, when set, supplies input from outside the queues; what it
	// handed over and an abort kept out goes back through its Unpoll.
	Pending Pending
	// BeforeStop, when set, is asked once the run would end (see
	// BeforeStop).
	BeforeStop BeforeStop

	// Current, when set, is read before every request for the model, the
	// function that streams it and the options, so that a model or thinking
	// level switched during a run applies from the next request on.
	Current func() (Model, StreamFn, StreamOptions)
	// CurrentTools, when set, is read before every request for the tools,
	// so that tools that change during a run (an MCP server's
	// tools/list_changed) apply from the next request on; the calls of a
	// response run with the tools that request offered.
	CurrentTools func() *ToolSet

	// Now stamps messages; it defaults to time.Now.
	Now func() time.Time
	// ToolAbortGrace defaults to DefaultToolAbortGrace.
	ToolAbortGrace time.Duration
}

// AgentStream is what Loop returns: the run's events, completing on agent_end
// with the messages the run added.
type AgentStream = EventStream[Event, []Message]

// NewAgentStream returns a stream that completes on agent_end. It is
// unbounded, so the loop never waits for its consumer: the Agent's
// subscribers may be slow without holding up streaming or tools.
func NewAgentStream() *AgentStream {
	return NewUnboundedEventStream(
		func(e Event) bool { _, ok := e.(AgentEnd); return ok },
		func(e Event) []Message { return e.(AgentEnd).Messages },
	)
}

// Loop runs one agent run on its own goroutine. history is the transcript so
// far (not modified); prompts are the new messages, none to continue. The
// caller must drain the returned stream until it is closed, or Close it.
// Cancelling ctx aborts the run; the stream still ends with agent_end.
func Loop(ctx context.Context, history, prompts []Message, cfg LoopConfig) *AgentStream {
	stream := NewAgentStream()
	go func() {
		defer stream.End(nil)
		emit := func(e Event) { stream.Push(context.Background(), e) }
		run(ctx, history, prompts, cfg, emit)
	}()
	return stream
}

// loop is the state of one run. All of its methods run on the run's goroutine,
// which emits every event but the annotations a StreamFn adds while it
// streams (see Annotate).
type loop struct {
	ctx     context.Context
	cfg     LoopConfig
	emit    func(Event) // safe for concurrent use: annotations come from the StreamFn
	context []Message   // what the next request sends
	added   []Message   // what this run added, for agent_end

	turnOpen    bool
	messageOpen bool

	// continuations counts the responses cut by their output limit that
	// went on from their complete calls (keepCalls); note is what the next
	// turn tells the model about the last one.
	continuations int
	note          []Message

	// answer is the model's last response, while the run has nothing
	// after it: BeforeStop is asked only then.
	answer *Message
}

func run(ctx context.Context, history, prompts []Message, cfg LoopConfig, emit func(Event)) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.ToolAbortGrace == 0 {
		cfg.ToolAbortGrace = DefaultToolAbortGrace
	}
	l := &loop{ctx: ctx, cfg: cfg, emit: emit, context: append([]Message(nil), history...)}
	defer func() {
		if r := recover(); r != nil {
			l.fail(internalError(r))
		}
	}()
	l.emit(AgentStart{})
	// A run of nothing but the user's shell commands opens no turn and
	// asks the model nothing (shell.go).
	ask := len(prompts) == 0 || forModel(prompts)
	if ask {
		l.startTurn()
	}
	l.appendInputs(prompts)
	l.runTurns(ask)
}

// runTurns is the two-level loop of SPEC §2.4; ask says the inputs the run
// started with are for the model. Inputs that are only the user's shell
// commands are run and recorded, and no request follows them.
func (l *loop) runTurns(ask bool) {
	pending := l.pollSteering()
	for {
		moreTools := ask
		for moreTools || !pending.empty() {
			// One check: an abort landing between a second check and this
			// one would drop the polled items on the floor.
			if l.ctx.Err() != nil {
				pending.giveBack(l.cfg)
				l.aborted()
				return
			}
			inputs := pending.messages()
			ask = moreTools || forModel(inputs)
			if ask {
				l.startTurn()
			}
			l.appendInputs(inputs)
			pending = polled{}
			l.answer = nil
			if l.aborted() {
				return
			}
			if !ask {
				pending = l.pollSteering()
				continue
			}
			msg, err := l.streamResponse()
			if err != nil {
				l.fail(internalError(err))
				return
			}
			if msg.StopReason == StopReasonError || msg.StopReason == StopReasonAborted {
				l.endTurn(msg, nil)
				l.emit(AgentEnd{Messages: l.added})
				return
			}
			calls := msg.ToolCalls()
			moreTools = len(calls) > 0
			var results []Message
			if moreTools {
				var terminate bool
				results, terminate = l.executeTools(calls)
				moreTools = !terminate
			}
			l.endTurn(msg, results)
			if !moreTools && len(calls) == 0 {
				l.answer = &msg
			}
			if l.aborted() {
				return
			}
			pending = l.pollSteering()
			if moreTools {
				pending.notes = l.note
			}
			l.note = nil
		}
		if l.aborted() {
			return
		}
		ask = false // the follow-ups decide
		pending = polled{queued: l.poll(l.cfg.PollFollowUps)}
		if pending.empty() && l.cfg.Pending != nil {
			pending.external = l.cfg.Pending.Wait(l.ctx)
		}
		if pending.empty() && l.answer != nil && l.cfg.BeforeStop != nil && l.ctx.Err() == nil {
			pending.notes = l.cfg.BeforeStop(l.ctx, *l.answer)
		}
		if pending.empty() {
			break
		}
	}
	l.emit(AgentEnd{Messages: l.added})
}

// pollSteering is a steering drain point: the queued steering, then what
// Pending has ready.
func (l *loop) pollSteering() polled {
	p := polled{queued: l.poll(l.cfg.PollSteering)}
	if l.cfg.Pending != nil {
		p.external = l.cfg.Pending.Poll()
	}
	return p
}

func (l *loop) poll(f func() []Message) []Message {
	if f == nil {
		return nil
	}
	return f()
}

// aborted reports whether the run was cancelled and, if so, closes it with the
// aborted marker so that nothing resumes from a dangling tool call. (seed)
func (l *loop) aborted() bool {
	if l.ctx.Err() == nil {
		return false
	}
	l.startTurn()
	marker := l.marker()
	l.appendMessage(marker)
	l.endTurn(marker, nil)
	l.emit(AgentEnd{Messages: l.added})
	return true
}

// marker is the empty assistant message that records an abort (or a fault
// that cancelled the run, with stopReason error).
func (l *loop) marker() Message {
	return l.emptyAssistant(cancelledStop(l.ctx))
}

// emptyAssistant is an assistant message without content that closes a turn
// the provider did not close.
func (l *loop) emptyAssistant(reason StopReason, errorMessage string) Message {
	return Message{
		Role: RoleAssistant, API: l.cfg.Model.API, Provider: l.cfg.Model.Provider,
		Model: l.cfg.Model.ID, StopReason: reason, ErrorMessage: errorMessage,
		Timestamp: l.cfg.Now(), Content: []Content{},
	}
}

// fail emits the lifecycle tail for a loop that broke, so that consumers have
// one rendering path. (seed)
func (l *loop) fail(reason string) {
	msg := l.emptyAssistant(StopReasonError, reason)
	l.startTurn()
	if !l.messageOpen {
		l.emit(MessageStart{Message: msg})
	}
	l.messageOpen = false
	l.context = append(l.context, msg)
	l.added = append(l.added, msg)
	l.emit(MessageEnd{Message: msg})
	l.endTurn(msg, nil)
	l.emit(AgentEnd{Messages: l.added})
}

func (l *loop) startTurn() {
	if !l.turnOpen {
		l.turnOpen = true
		l.emit(TurnStart{})
	}
}

func (l *loop) endTurn(msg Message, results []Message) {
	l.turnOpen = false
	l.emit(TurnEnd{Message: msg, ToolResults: results})
}

// appendMessage records a complete message (user, tool result, marker).
func (l *loop) appendMessage(m Message) {
	l.emit(MessageStart{Message: m})
	l.context = append(l.context, m)
	l.added = append(l.added, m)
	l.emit(MessageEnd{Message: m})
}

// internalError words a loop failure that is no provider's reported error: a
// panic recovered in the loop, or a breach of the StreamFn contract.
func internalError(cause any) string {
	return fmt.Sprintf("internal error: %v", cause)
}

// streamResponse streams one assistant response and returns it finalised.
// The error is a breach of the StreamFn contract (errNoStream, errNoMessage)
// that leaves no message to record; the caller ends the run with it.
func (l *loop) streamResponse() (Message, error) {
	if l.cfg.CurrentTools != nil {
		l.cfg.Tools = l.cfg.CurrentTools()
	}
	llm := LLMContext{
		SystemPrompt: l.cfg.SystemPrompt,
		Messages:     ForModel(l.context),
		Tools:        l.cfg.Tools.Specs(),
	}
	if l.cfg.Current != nil {
		l.cfg.Model, l.cfg.Stream, l.cfg.Options = l.cfg.Current()
	}
	stream := l.cfg.Stream(l.ctx, l.cfg.Model, llm, l.cfg.Options)
	if stream == nil {
		return Message{}, errNoStream
	}
	var last Message
	ended := true
	for done := false; !done; {
		select {
		case ev, ok := <-stream.Events():
			if !ok {
				done = true
				break
			}
			if ev.Type == EventAnnotation {
				if ev.Annotation != nil {
					l.emit(*ev.Annotation)
				}
				continue
			}
			if ev.Type == EventReplaceContext {
				l.replaceContext(ev.Context)
				continue
			}
			last = ev.Partial
			if !l.messageOpen {
				l.messageOpen = true
				l.emit(MessageStart{Message: ev.Partial})
			}
			if ev.Type != EventStart && ev.Type != EventDone && ev.Type != EventError {
				l.emit(MessageUpdate{Message: ev.Partial, Event: ev})
			}
		case <-l.ctx.Done():
			ended = l.drainAfterAbort(stream, &last)
			done = true
		}
	}
	final := last
	if ended {
		if r, err := stream.Result(context.Background()); err == nil && r.Role == RoleAssistant {
			final = r
		}
	}
	if final.Role != RoleAssistant {
		if l.ctx.Err() == nil {
			return Message{}, errNoMessage
		}
		final = l.marker()
	}
	if l.ctx.Err() != nil {
		final.StopReason, final.ErrorMessage = cancelledStop(l.ctx)
	}
	final, dropped, goOn := keepCalls(final, l.continuations)
	if goOn {
		l.continuations++
		l.note = []Message{outputLimitNote(dropped, l.cfg.Now())}
	}
	if repaired, ok := repairTextToolCalls(final, l.knownTool, newToolCallID); ok {
		final = repaired
	}
	if !l.messageOpen {
		l.emit(MessageStart{Message: final})
	}
	l.messageOpen = false
	l.context = append(l.context, final)
	l.added = append(l.added, final)
	l.emit(MessageEnd{Message: final})
	return final, nil
}

// knownTool says whether the run has a tool named name.
func (l *loop) knownTool(name string) bool {
	_, ok := l.cfg.Tools.Lookup(name)
	return ok
}

// replaceContext adopts a context the StreamFn rewrote (a compaction) as the
// run's and announces it, so that the Agent's transcript follows. A
// replacement after the response started would lose what was streamed: it
// is ignored.
func (l *loop) replaceContext(msgs []Message) {
	if l.messageOpen {
		return
	}
	replaced := l.context
	l.context = append([]Message(nil), msgs...)
	l.emit(ContextReplaced{Messages: append([]Message(nil), msgs...), Replaced: replaced})
}

// drainAfterAbort gives an aborted provider the grace period to end its
// stream, keeping the partial message current; a provider that overstays is
// abandoned. It reports whether the stream ended by itself.
func (l *loop) drainAfterAbort(stream *AssistantStream, last *Message) bool {
	timer := time.NewTimer(l.cfg.ToolAbortGrace)
	defer timer.Stop()
	for {
		select {
		case ev, ok := <-stream.Events():
			if !ok {
				return true
			}
			if ev.Type == EventAnnotation && ev.Annotation != nil {
				l.emit(*ev.Annotation) // the attempt's end still belongs to the run
				continue
			}
			if ev.Partial.Role == RoleAssistant {
				*last = ev.Partial
			}
		case <-timer.C:
			stream.Close()
			return false
		}
	}
}
