package scripted

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/llmhttp"
)

// reply is one response to stream, decided by the default behaviour or taken
// from a scenario step. Content streams in order: thinking, text, tool calls;
// then the fault, if any, ends it.
type reply struct {
	thinking, signature string
	text                string
	calls               []agent.Content
	fault               Fault
	err                 ErrorSpec
	idleTimeout         time.Duration
	keepAlive           time.Duration // between a hang's keep-alives; 0 sends none
	pace                float64       // overrides the provider's pace when > 0
	usage               *UsageSpec
}

// play streams r through w and ends the response. It runs under an idle
// watchdog like the HTTP providers' (llmhttp.Watchdog): every piece the
// response streams is progress and re-arms it, keep-alives are not, so a
// response that makes no progress for the window — a hang, with or without
// keep-alives, or a pace slower than the window — fails with the same
// timeout error as a stalled server.
func (p *Provider) play(ctx context.Context, w *agent.StreamWriter, model agent.Model, r reply, inputTokens int) {
	switch r.fault {
	case FaultHTTP: // the status arrives before any stream
		w.Fail(r.providerError(agent.ErrorHTTP, http.StatusText(r.err.Status)))
		return
	case FaultEmpty:
		w.Start()
		w.Fail(r.providerError(agent.ErrorEmpty, "the response ended without any content"))
		return
	}
	idle := p.opts.IdleTimeout
	if r.idleTimeout > 0 {
		idle = r.idleTimeout
	}
	dog := llmhttp.NewWatchdog(ctx, llmhttp.ProviderName(model, ProviderName),
		llmhttp.Windows{Idle: idle, First: p.opts.FirstProgressTimeout}, p.opts.Clock)
	defer dog.Stop()
	e := p.emitter(dog, w, r.pace)
	e.emit(w.Start)
	if !e.content(r) {
		w.Fail(e.silenced(r))
		return
	}
	w.SetUsage(usageOf(r.usage, inputTokens, w.Message()))
	switch r.fault {
	case FaultLength:
		w.Finish(agent.StopReasonLength)
	case FaultStream:
		w.Fail(r.providerError(agent.ErrorStream, "the stream was interrupted"))
	case FaultMalformed:
		perr := r.providerError(agent.ErrorMalformed, "cannot parse a chunk of the stream")
		if perr.Body == "" {
			perr.Body = `data: {"type":"content_block_delta","delta":{"type":"text_delta","text":"`
		}
		w.Fail(perr)
	case FaultHang: // no progress, until the caller or the watchdog gives up
		e.stall(r.keepAlive)
		w.Fail(e.silenced(r))
	default:
		if len(r.calls) > 0 {
			w.Finish(agent.StopReasonToolUse)
		} else {
			w.Finish(agent.StopReasonStop)
		}
	}
}

// errCancelled is what a cancelled request fails with; the writer reports
// it as stopReason aborted.
func errCancelled() *agent.ProviderError {
	return &agent.ProviderError{Kind: agent.ErrorNetwork, Message: "request cancelled"}
}

// providerError fills the step's error details in, defaulting the message.
func (r reply) providerError(kind agent.ErrorKind, message string) *agent.ProviderError {
	if r.err.Message != "" {
		message = r.err.Message
	}
	return &agent.ProviderError{
		Kind: kind, Status: r.err.Status, Type: r.err.Type, Code: r.err.Code,
		Message: message, Body: agent.TruncateBody(r.err.Body), Header: r.err.header(),
	}
}

// emitter returns an emitter at the provider's pace, or at pace when the
// reply sets one, that reports its progress to dog.
func (p *Provider) emitter(dog *llmhttp.Watchdog, w *agent.StreamWriter, pace float64) *emitter {
	if pace <= 0 {
		pace = p.opts.Pace
	}
	e := &emitter{ctx: dog.Context(), dog: dog, w: w, sleep: p.opts.Sleep, runes: p.opts.ChunkSize}
	if pace > 0 {
		e.interval = time.Duration(float64(time.Second) / pace)
	}
	return e
}

// emitter streams content in paced chunks. Every method reports false when
// ctx — the request's, cancelled by the watchdog too — ended the wait
// between two chunks.
type emitter struct {
	ctx      context.Context
	dog      *llmhttp.Watchdog
	w        *agent.StreamWriter
	sleep    func(context.Context, time.Duration) error
	interval time.Duration
	runes    int
	started  bool
}

// emit makes one writer call, which is progress: the watchdog is paused
// while the call waits for the consumer, then re-armed for a full window.
func (e *emitter) emit(write func()) {
	e.dog.Pause()
	write()
	e.dog.Resume(true)
}

// stall makes no progress until ctx ends, sending a keep-alive every
// interval (none when it is 0), as a stalled server does.
func (e *emitter) stall(every time.Duration) {
	if every <= 0 {
		<-e.ctx.Done()
		return
	}
	for e.sleep(e.ctx, every) == nil {
		e.dog.KeepAlive()
	}
}

// silenced is the error of a response whose ctx ended: the watchdog's
// timeout, carrying the step's headers (the response had arrived), or a
// cancel the writer reports as aborted.
func (e *emitter) silenced(r reply) *agent.ProviderError {
	if e.dog.TimedOut() {
		perr := e.dog.IdleFailure()
		perr.Header = r.err.header()
		return perr
	}
	return errCancelled()
}

// pause waits one interval before every chunk but the first.
func (e *emitter) pause() bool {
	if !e.started {
		e.started = true
		return e.ctx.Err() == nil
	}
	if e.interval > 0 {
		if e.sleep(e.ctx, e.interval) != nil {
			return false
		}
	}
	return e.ctx.Err() == nil
}

// content streams the reply's thinking, text and tool calls; a length fault
// cuts the first call in half and drops the others.
func (e *emitter) content(r reply) bool {
	if !e.thinking(r.thinking, r.signature) || !e.text(r.text) {
		return false
	}
	if r.fault == FaultLength {
		return len(r.calls) == 0 || e.halfToolCall(r.calls[0])
	}
	for _, c := range r.calls {
		if !e.toolCall(c) {
			return false
		}
	}
	return true
}

func (e *emitter) text(s string) bool {
	for _, c := range chunks(s, e.runes) {
		if !e.pause() {
			return false
		}
		e.emit(func() { e.w.TextDelta(c) })
	}
	return true
}

func (e *emitter) thinking(s, signature string) bool {
	for _, c := range chunks(s, e.runes) {
		if !e.pause() {
			return false
		}
		e.emit(func() { e.w.ThinkingDelta(c) })
	}
	if signature != "" {
		e.w.ThinkingSignature(signature)
	}
	if s != "" || signature != "" {
		e.emit(e.w.EndBlock)
	}
	return true
}

func (e *emitter) toolCall(c agent.Content) bool {
	if !e.pause() {
		return false
	}
	e.emit(func() { e.w.ToolCallStart(c.ID, c.Name) })
	for _, piece := range argPieces(argsJSON(c.Arguments)) {
		if !e.pause() {
			return false
		}
		e.emit(func() { e.w.ToolCallDelta(piece) })
	}
	e.emit(e.w.EndBlock)
	return true
}

// halfToolCall streams the first half of a call's arguments, as a response
// cut by the output limit would.
func (e *emitter) halfToolCall(c agent.Content) bool {
	if !e.pause() {
		return false
	}
	e.emit(func() { e.w.ToolCallStart(c.ID, c.Name) })
	args := []rune(argsJSON(c.Arguments))
	for _, piece := range argPieces(string(args[:len(args)/2])) {
		if !e.pause() {
			return false
		}
		e.emit(func() { e.w.ToolCallDelta(piece) })
	}
	return true
}

func argsJSON(args map[string]any) string {
	if args == nil {
		return "{}"
	}
	b, err := json.Marshal(args)
	if err != nil {
		return "{}"
	}
	return string(b)
}

// argPieces splits argument JSON into a few pieces, as providers send it.
func argPieces(s string) []string {
	n := len([]rune(s))
	size := max(1, (n+3)/4)
	return chunks(s, size)
}

// chunks splits s into pieces of at most n runes.
func chunks(s string, n int) []string {
	if s == "" {
		return nil
	}
	rs := []rune(s)
	out := make([]string, 0, (len(rs)+n-1)/n)
	for len(rs) > 0 {
		k := min(n, len(rs))
		out = append(out, string(rs[:k]))
		rs = rs[k:]
	}
	return out
}
