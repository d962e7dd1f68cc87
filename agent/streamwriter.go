package agent

import (
	"context"
	"encoding/json"
	"strings"
	"time"
)

// StreamWriter assembles an assistant message from a provider's pieces and
// pushes the matching events, each with an immutable snapshot of the message so
// far. Providers call it from their one producing goroutine; it is not safe for
// concurrent use. Blocks open implicitly (a text delta after a tool call opens a
// new text block) and close when another kind starts or the message ends.
//
// A writer told to HoldDeltas keeps each delta back until Flush or the next
// event of another kind, merging the deltas of one block in between: a
// provider reading the network flushes before every read that may wait, so
// the chunks that arrived together reach the consumer as one event (a fast
// stream then costs the kernel one event a read, not one a chunk) and no
// delta waits on the network unseen.
type StreamWriter struct {
	ctx    context.Context
	stream *AssistantStream
	msg    Message
	blocks []*blockBuilder
	open   *blockBuilder
	ended  bool

	hold bool
	held heldDelta
}

// heldDelta is the delta a holding writer has not pushed yet: the text of
// the open block from offset from on.
type heldDelta struct {
	typ   AssistantEventType // "" when nothing is held
	block *blockBuilder
	from  int
}

type blockBuilder struct {
	index   int
	kind    ContentType
	text    strings.Builder // text, thinking, or raw tool-call arguments
	content Content         // the non-text fields
	args    *partialArgs    // a tool call's arguments, parsed as they stream
}

// NewStreamWriter starts a message for model at time at, pushing to stream.
func NewStreamWriter(ctx context.Context, stream *AssistantStream, model Model, at time.Time) *StreamWriter {
	return &StreamWriter{
		ctx:    ctx,
		stream: stream,
		// A streaming message reads as stopped until told otherwise, as pi's do.
		msg: Message{
			Role: RoleAssistant, API: model.API, Provider: model.Provider,
			Model: model.ID, Timestamp: at, StopReason: StopReasonStop,
		},
	}
}

// Start pushes the start event.
func (w *StreamWriter) Start() { w.push(AssistantEvent{Type: EventStart}) }

// HoldDeltas makes the writer hold deltas back until Flush (see
// StreamWriter).
func (w *StreamWriter) HoldDeltas() { w.hold = true }

// Flush pushes the held delta, if any: the text its block gained since the
// last event, with a snapshot of the message as it stands.
func (w *StreamWriter) Flush() {
	h := w.held
	if h.typ == "" {
		return
	}
	w.held = heldDelta{}
	w.pushNow(AssistantEvent{Type: h.typ, ContentIndex: h.block.index, Delta: h.block.text.String()[h.from:]})
}

// TryFlush is Flush when that needs no wait for the consumer; it reports
// false, keeping the delta, when the push would wait.
func (w *StreamWriter) TryFlush() bool {
	h := w.held
	if h.typ == "" || w.ended {
		return true
	}
	ev := AssistantEvent{Type: h.typ, ContentIndex: h.block.index, Delta: h.block.text.String()[h.from:], Partial: w.snapshot()}
	if !w.stream.TryPush(ev) {
		return false
	}
	w.held = heldDelta{}
	return true
}

// TextDelta appends text, opening a text block if needed.
func (w *StreamWriter) TextDelta(s string) {
	b := w.ensure(ContentText)
	w.delta(EventTextDelta, b, s)
}

// ThinkingDelta appends thinking, opening a thinking block if needed.
func (w *StreamWriter) ThinkingDelta(s string) {
	b := w.ensure(ContentThinking)
	w.delta(EventThinkingDelta, b, s)
}

// delta appends s to b, the open block, and pushes it, or holds it merged
// with the delta held for b.
func (w *StreamWriter) delta(typ AssistantEventType, b *blockBuilder, s string) {
	if !w.hold {
		b.write(s)
		w.push(AssistantEvent{Type: typ, ContentIndex: b.index, Delta: s})
		return
	}
	if w.held.typ != typ || w.held.block != b {
		w.Flush()
		w.held = heldDelta{typ: typ, block: b, from: b.text.Len()}
	}
	b.write(s)
}

// write appends s to the block's text, doubling the buffer when s does not
// fit: append grows a large buffer by as little as a quarter, so an 80 KB
// answer arriving in small deltas was reallocated 23 times, leaving five
// times its size in garbage (twice, now).
func (b *blockBuilder) write(s string) {
	if b.text.Cap()-b.text.Len() < len(s) {
		b.text.Grow(len(s)) // to twice the capacity plus len(s)
	}
	b.text.WriteString(s)
}

// trimSpare is the spare buffer a closed block may keep whatever its size.
const trimSpare = 1 << 10

// trim copies a closed block's text to a buffer of its size when much of the
// buffer is spare: the text is kept as long as the session, and write's
// doubling can leave up to half of it unused.
func (b *blockBuilder) trim() {
	if s := b.text.String(); b.text.Cap()-len(s) > max(len(s)/4, trimSpare) {
		b.text = strings.Builder{}
		b.text.Grow(len(s))
		b.text.WriteString(s)
	}
}

// ThinkingSignature sets the signature of the open (or a new) thinking block.
func (w *StreamWriter) ThinkingSignature(sig string) {
	b := w.ensure(ContentThinking)
	b.content.Signature += sig
}

// RedactedThinking adds a closed, redacted thinking block whose payload is data.
func (w *StreamWriter) RedactedThinking(data string) {
	w.EndBlock()
	b := w.ensure(ContentThinking)
	b.content.Redacted = true
	b.content.Signature = data
	w.EndBlock()
}

// ToolCallStart opens a tool-call block.
func (w *StreamWriter) ToolCallStart(id, name string) {
	w.EndBlock()
	b := w.openToolCall()
	b.content.ID, b.content.Name = id, name
	w.push(AssistantEvent{Type: EventToolCallStart, ContentIndex: b.index})
}

// ToolCallDelta appends a piece of the open tool call's argument JSON. The
// arguments are parsed progressively, at a cost proportional to the piece
// (see partialArgs), so a call carrying a whole file streams in linear time.
func (w *StreamWriter) ToolCallDelta(s string) {
	b := w.open
	if b == nil || b.kind != ContentToolCall {
		w.EndBlock() // an open text or thinking block ends first, with its *_end
		b = w.openToolCall()
		w.push(AssistantEvent{Type: EventToolCallStart, ContentIndex: b.index})
	}
	b.args.write(s)
	b.content.Arguments = b.args.value()
	w.delta(EventToolCallDelta, b, s)
}

// SetToolCallID fills in an id or name that arrived after the call started.
func (w *StreamWriter) SetToolCallID(id, name string) {
	if b := w.open; b != nil && b.kind == ContentToolCall {
		if id != "" {
			b.content.ID = id
		}
		if name != "" {
			b.content.Name = name
		}
	}
}

// EndBlock closes the open block, pushing its *_end event.
func (w *StreamWriter) EndBlock() {
	b := w.open
	if b == nil {
		return
	}
	w.open = nil
	switch b.kind {
	case ContentText:
		b.trim()
		w.push(AssistantEvent{Type: EventTextEnd, ContentIndex: b.index, Content: b.text.String()})
	case ContentThinking:
		b.trim()
		w.push(AssistantEvent{Type: EventThinkingEnd, ContentIndex: b.index, Content: b.text.String()})
	case ContentToolCall:
		var args map[string]any
		if json.Unmarshal([]byte(b.text.String()), &args) != nil || args == nil {
			args = ParsePartialJSON(b.text.String())
			b.content.Incomplete = true
		}
		b.content.Arguments = args
		call := b.snapshot()
		w.push(AssistantEvent{Type: EventToolCallEnd, ContentIndex: b.index, ToolCall: &call})
	}
}

// SetUsage records the token counts seen so far.
func (w *StreamWriter) SetUsage(u Usage) { w.msg.Usage = u }

// Usage returns the token counts recorded so far.
func (w *StreamWriter) Usage() Usage { return w.msg.Usage }

// Finish closes the open block and pushes done with reason, then ends the
// stream. A finished writer ignores further calls.
func (w *StreamWriter) Finish(reason StopReason) {
	if w.ended {
		return
	}
	w.EndBlock()
	w.msg.StopReason = reason
	w.push(AssistantEvent{Type: EventDone, Reason: reason})
	w.end()
}

// Fail ends the message with an error event: stopReason aborted when the
// writer's context was cancelled, else error carrying perr. The content
// received so far is kept.
func (w *StreamWriter) Fail(perr *ProviderError) {
	if w.ended {
		return
	}
	w.EndBlock()
	if w.ctx.Err() != nil {
		w.msg.StopReason = StopReasonAborted
		w.msg.ErrorMessage = AbortReason(w.ctx)
	} else {
		w.msg.StopReason = StopReasonError
		w.msg.Error = perr
		w.msg.ErrorMessage = perr.Error()
	}
	// Deliver the final event even though the caller's ctx may be done: the
	// consumer is still reading until it sees it or closes the stream.
	w.Flush()
	ev := AssistantEvent{Type: EventError, Reason: w.msg.StopReason, Partial: w.snapshot()}
	w.stream.Push(context.Background(), ev)
	w.end()
}

// Message returns a snapshot of the message so far.
func (w *StreamWriter) Message() Message { return w.snapshot() }

func (w *StreamWriter) end() {
	w.Flush()
	w.ended = true
	w.stream.End(w.snapshot())
}

func (w *StreamWriter) ensure(kind ContentType) *blockBuilder {
	if w.open != nil && w.open.kind == kind {
		return w.open
	}
	w.EndBlock()
	b := w.openBlock(kind)
	if kind == ContentText {
		w.push(AssistantEvent{Type: EventTextStart, ContentIndex: b.index})
	} else {
		w.push(AssistantEvent{Type: EventThinkingStart, ContentIndex: b.index})
	}
	return b
}

func (w *StreamWriter) openToolCall() *blockBuilder {
	b := w.openBlock(ContentToolCall)
	b.args = newPartialArgs()
	b.content.Arguments = b.args.value()
	return b
}

func (w *StreamWriter) openBlock(kind ContentType) *blockBuilder {
	b := &blockBuilder{index: len(w.blocks), kind: kind}
	b.content.Type = kind
	w.blocks = append(w.blocks, b)
	w.open = b
	return b
}

// push pushes ev after the held delta, which comes first.
func (w *StreamWriter) push(ev AssistantEvent) {
	w.Flush()
	w.pushNow(ev)
}

func (w *StreamWriter) pushNow(ev AssistantEvent) {
	if w.ended {
		return
	}
	ev.Partial = w.snapshot()
	w.stream.Push(w.ctx, ev)
}

// snapshot copies the message; strings.Builder never rewrites bytes it has
// handed out, so the strings it shares stay immutable.
func (w *StreamWriter) snapshot() Message {
	m := w.msg
	m.Content = make([]Content, len(w.blocks))
	for i, b := range w.blocks {
		m.Content[i] = b.snapshot()
	}
	return m
}

func (b *blockBuilder) snapshot() Content {
	c := b.content
	switch b.kind {
	case ContentText:
		c.Text = b.text.String()
	case ContentThinking:
		c.Thinking = b.text.String()
	}
	return c
}
