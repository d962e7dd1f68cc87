package scripted

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/steer-tui/steer/agent"
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
	pace                float64 // overrides the provider's pace when > 0
	usage               *UsageSpec
}

// play streams r through w and ends the response.
func (p *Provider) play(ctx context.Context, w *agent.StreamWriter, r reply, inputTokens int) {
	switch r.fault {
	case FaultHTTP: // the status arrives before any stream
		w.Fail(r.providerError(agent.ErrorHTTP, http.StatusText(r.err.Status)))
		return
	case FaultEmpty:
		w.Start()
		w.Fail(r.providerError(agent.ErrorEmpty, "the response ended without any content"))
		return
	}
	w.Start()
	if !p.emitter(ctx, w, r.pace).content(r) {
		w.Fail(errCancelled()) // reported as aborted: ctx is done
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
	case FaultHang:
		hang(ctx, w, r)
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

// hang sends nothing more until ctx is done (the writer then reports
// aborted) or the step's idle timeout fires.
func hang(ctx context.Context, w *agent.StreamWriter, r reply) {
	var fired <-chan time.Time
	if r.idleTimeout > 0 {
		t := time.NewTimer(r.idleTimeout)
		defer t.Stop()
		fired = t.C
	}
	select {
	case <-ctx.Done():
		w.Fail(errCancelled())
	case <-fired:
		w.Fail(r.providerError(agent.ErrorTimeout,
			fmt.Sprintf("no data received for %s (idle timeout)", r.idleTimeout)))
	}
}

// providerError fills the step's error details in, defaulting the message.
func (r reply) providerError(kind agent.ErrorKind, message string) *agent.ProviderError {
	if r.err.Message != "" {
		message = r.err.Message
	}
	return &agent.ProviderError{
		Kind: kind, Status: r.err.Status, Type: r.err.Type, Code: r.err.Code,
		Message: message, Body: agent.TruncateBody(r.err.Body),
	}
}

// emitter returns an emitter at the provider's pace, or at pace when the
// reply sets one.
func (p *Provider) emitter(ctx context.Context, w *agent.StreamWriter, pace float64) *emitter {
	if pace <= 0 {
		pace = p.opts.Pace
	}
	e := &emitter{ctx: ctx, w: w, sleep: p.opts.Sleep, runes: p.opts.ChunkSize}
	if pace > 0 {
		e.interval = time.Duration(float64(time.Second) / pace)
	}
	return e
}

// emitter streams content in paced chunks. Every method reports false when
// ctx ended the wait between two chunks.
type emitter struct {
	ctx      context.Context
	w        *agent.StreamWriter
	sleep    func(context.Context, time.Duration) error
	interval time.Duration
	runes    int
	started  bool
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
		e.w.TextDelta(c)
	}
	return true
}

func (e *emitter) thinking(s, signature string) bool {
	for _, c := range chunks(s, e.runes) {
		if !e.pause() {
			return false
		}
		e.w.ThinkingDelta(c)
	}
	if signature != "" {
		e.w.ThinkingSignature(signature)
	}
	if s != "" || signature != "" {
		e.w.EndBlock()
	}
	return true
}

func (e *emitter) toolCall(c agent.Content) bool {
	if !e.pause() {
		return false
	}
	e.w.ToolCallStart(c.ID, c.Name)
	for _, piece := range argPieces(argsJSON(c.Arguments)) {
		if !e.pause() {
			return false
		}
		e.w.ToolCallDelta(piece)
	}
	e.w.EndBlock()
	return true
}

// halfToolCall streams the first half of a call's arguments, as a response
// cut by the output limit would.
func (e *emitter) halfToolCall(c agent.Content) bool {
	if !e.pause() {
		return false
	}
	e.w.ToolCallStart(c.ID, c.Name)
	args := []rune(argsJSON(c.Arguments))
	for _, piece := range argPieces(string(args[:len(args)/2])) {
		if !e.pause() {
			return false
		}
		e.w.ToolCallDelta(piece)
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
