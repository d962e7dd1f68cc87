// Package agenttest scripts provider responses for kernel and runner tests and
// renders event sequences as compact traces that tests compare whole.
package agenttest

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/steer-tui/steer/agent"
)

// Epoch is the fixed time scripted messages are stamped with.
var Epoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// Clock returns Epoch, for deterministic timestamps.
func Clock() time.Time { return Epoch }

// Model is the model scripted responses claim to come from.
var Model = agent.Model{Provider: "test", ID: "scripted-test", API: "test", ContextWindow: 100000}

type stepKind int

const (
	stepText stepKind = iota
	stepThinking
	stepToolCall
	stepWait
	stepHang
	stepStop
	stepFail
	stepPanic
	stepUsage
)

type step struct {
	kind   stepKind
	text   string
	id     string
	name   string
	wait   <-chan struct{}
	reason agent.StopReason
	err    *agent.ProviderError
	usage  agent.Usage
}

// Response is one scripted assistant response, built fluently:
// Reply().Text("Hel").Text("lo").Stop(agent.StopReasonStop).
type Response struct{ steps []step }

// Reply starts a response.
func Reply() *Response { return &Response{} }

// Text streams a text delta.
func (r *Response) Text(s string) *Response {
	r.steps = append(r.steps, step{kind: stepText, text: s})
	return r
}

// Thinking streams a thinking delta.
func (r *Response) Thinking(s string) *Response {
	r.steps = append(r.steps, step{kind: stepThinking, text: s})
	return r
}

// ToolCall streams a tool call whose argument JSON arrives in two pieces.
func (r *Response) ToolCall(id, name, argsJSON string) *Response {
	r.steps = append(r.steps, step{kind: stepToolCall, id: id, name: name, text: argsJSON})
	return r
}

// Wait blocks the stream until ch is closed (or the request is cancelled).
func (r *Response) Wait(ch <-chan struct{}) *Response {
	r.steps = append(r.steps, step{kind: stepWait, wait: ch})
	return r
}

// Hang blocks until the request is cancelled, then fails as the contract says.
func (r *Response) Hang() *Response {
	r.steps = append(r.steps, step{kind: stepHang})
	return r
}

// Usage sets the response's token counts.
func (r *Response) Usage(u agent.Usage) *Response {
	r.steps = append(r.steps, step{kind: stepUsage, usage: u})
	return r
}

// Stop finishes the response with reason.
func (r *Response) Stop(reason agent.StopReason) *Response {
	r.steps = append(r.steps, step{kind: stepStop, reason: reason})
	return r
}

// Fail ends the response with an error event carrying err.
func (r *Response) Fail(err *agent.ProviderError) *Response {
	r.steps = append(r.steps, step{kind: stepFail, err: err})
	return r
}

// Panic makes the StreamFn itself panic when called, breaking the contract;
// the loop must survive it.
func (r *Response) Panic() *Response {
	r.steps = append(r.steps, step{kind: stepPanic})
	return r
}

// Script plays responses in order, one per request, and records each request.
type Script struct {
	mu        sync.Mutex
	responses []*Response
	requests  []agent.LLMContext
}

// NewScript returns a script of responses.
func NewScript(responses ...*Response) *Script { return &Script{responses: responses} }

// Requests returns the contexts the script was asked with, in order.
func (s *Script) Requests() []agent.LLMContext {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]agent.LLMContext(nil), s.requests...)
}

// Stream is the script's agent.StreamFn.
func (s *Script) Stream(ctx context.Context, model agent.Model, llm agent.LLMContext, _ agent.StreamOptions) *agent.AssistantStream {
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, llm)
	var resp *Response
	if n < len(s.responses) {
		resp = s.responses[n]
	}
	s.mu.Unlock()
	if resp == nil {
		resp = Reply().Fail(&agent.ProviderError{Kind: agent.ErrorHTTP, Status: 500, Message: fmt.Sprintf("script has no response #%d", n+1)})
	}
	if len(resp.steps) > 0 && resp.steps[0].kind == stepPanic {
		panic("scripted provider panicked")
	}
	stream := agent.NewAssistantStream()
	go play(ctx, stream, model, resp)
	return stream
}

func play(ctx context.Context, stream *agent.AssistantStream, model agent.Model, resp *Response) {
	w := agent.NewStreamWriter(ctx, stream, model, Epoch)
	w.Start()
	cancelled := func() bool {
		if ctx.Err() != nil {
			w.Fail(&agent.ProviderError{Kind: agent.ErrorNetwork, Message: "cancelled"})
			return true
		}
		return false
	}
	for _, st := range resp.steps {
		if cancelled() {
			return
		}
		switch st.kind {
		case stepText:
			w.TextDelta(st.text)
		case stepThinking:
			w.ThinkingDelta(st.text)
		case stepToolCall:
			w.ToolCallStart(st.id, st.name)
			half := len(st.text) / 2
			w.ToolCallDelta(st.text[:half])
			w.ToolCallDelta(st.text[half:])
		case stepWait:
			select {
			case <-st.wait:
			case <-ctx.Done():
			}
		case stepHang:
			<-ctx.Done()
		case stepUsage:
			w.SetUsage(st.usage)
		case stepStop:
			w.Finish(st.reason)
			return
		case stepFail:
			w.Fail(st.err)
			return
		}
	}
	if !cancelled() {
		w.Finish(agent.StopReasonStop)
	}
}
