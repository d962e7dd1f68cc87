package mcp

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/steer-tui/steer/agent"
)

// Sampling: a server whose configuration allows it (AllowSampling) may ask
// the model for a completion (sampling/createMessage) while one of its
// tools runs. The request is answered by whoever runs that tool call — the
// runner puts a Sampler in the call's context (WithSampler), which asks
// the user under the approval rules and then the current model — so the
// question reaches the run that caused it and its answer is charged there.
// A server without the allowance is not offered sampling at all, and a
// request outside a call of its tools is refused: nobody could answer it.

// SamplingRequest is a server's request for a completion, as the SDK read
// it: Messages are the conversation to complete (text, images; audio as a
// note), SystemPrompt the server's own, MaxTokens its cap (0: none).
type SamplingRequest struct {
	Server       string
	SystemPrompt string
	Messages     []agent.Message
	MaxTokens    int
	// ModelHints are the server's preferred model names, in order; steer
	// answers with the current model whatever they say.
	ModelHints []string
}

// SamplingResult is the model's answer: its text, the model's id and why
// it stopped, as the MCP specification names the reasons ("endTurn",
// "maxTokens", "stopSequence").
type SamplingResult struct {
	Text       string
	Model      string
	StopReason string
}

// A Sampler answers a server's sampling request; an error refuses it, with
// its text as the server reads it.
type Sampler func(ctx context.Context, req SamplingRequest) (SamplingResult, error)

type samplerKey struct{}

// WithSampler is ctx, for a tool call, with the Sampler that answers the
// sampling requests its server sends while the call runs.
func WithSampler(ctx context.Context, fn Sampler) context.Context {
	return context.WithValue(ctx, samplerKey{}, fn)
}

// errNoCall refuses a sampling request that arrives while none of the
// server's tool calls is running.
var errNoCall = errors.New("steer answers sampling requests only while one of this server's tools runs")

// inflight is a tool call of the server: its context (which carries the
// Sampler for the sampling requests it causes), its order, and how to end
// it when the server hangs.
type inflight struct {
	ctx    context.Context
	seq    uint64
	cancel context.CancelCauseFunc
}

var callSeq atomic.Uint64

// track records ctx as a running call of s until the returned func;
// cancel ends it.
func (s *server) track(token string, ctx context.Context, cancel context.CancelCauseFunc) (done func()) {
	s.mu.Lock()
	s.calls[token] = inflight{ctx: ctx, seq: callSeq.Add(1), cancel: cancel}
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		delete(s.calls, token)
		s.mu.Unlock()
	}
}

// latestCall is the context of the server's most recent running call that
// can answer sampling; nil when there is none. The protocol does not say
// which call a stdio server's request belongs to, so the latest is taken.
func (s *server) latestCall() context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	var best inflight
	for _, c := range s.calls {
		if _, ok := c.ctx.Value(samplerKey{}).(Sampler); ok && c.seq > best.seq {
			best = c
		}
	}
	return best.ctx
}

// sample answers a sampling request through the running call's Sampler,
// ending when either the call or the server's request does.
func (s *server) sample(ctx context.Context, p *sdk.CreateMessageParams) (*sdk.CreateMessageResult, error) {
	call := s.latestCall()
	if call == nil {
		s.o.logger().Info("mcp sampling refused: no tool call of the server runs", "server", s.cfg.Name)
		return nil, errNoCall
	}
	fn := call.Value(samplerKey{}).(Sampler)
	both, cancel := context.WithCancel(call)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	req, err := samplingRequest(s.cfg.Name, p)
	if err != nil {
		return nil, err
	}
	res, err := fn(both, req)
	if err != nil {
		return nil, err
	}
	return &sdk.CreateMessageResult{Content: &sdk.TextContent{Text: res.Text}, Model: res.Model,
		Role: "assistant", StopReason: res.StopReason}, nil
}

// samplingRequest reads the SDK's request; a message of a role other than
// user or assistant is refused.
func samplingRequest(server string, p *sdk.CreateMessageParams) (SamplingRequest, error) {
	req := SamplingRequest{Server: server, SystemPrompt: p.SystemPrompt, MaxTokens: int(max(p.MaxTokens, 0))}
	if p.ModelPreferences != nil {
		for _, h := range p.ModelPreferences.Hints {
			if h != nil && h.Name != "" {
				req.ModelHints = append(req.ModelHints, h.Name)
			}
		}
	}
	for i, m := range p.Messages {
		if m == nil {
			return req, fmt.Errorf("messages[%d] is empty", i)
		}
		role := agent.Role(m.Role)
		if role != agent.RoleUser && role != agent.RoleAssistant {
			return req, fmt.Errorf("messages[%d]: role %q is neither user nor assistant", i, m.Role)
		}
		block, _ := contentBlock(m.Content)
		req.Messages = append(req.Messages, agent.Message{Role: role, Content: []agent.Content{block}})
	}
	if len(req.Messages) == 0 {
		return req, errors.New("a sampling request needs at least one message")
	}
	return req, nil
}
