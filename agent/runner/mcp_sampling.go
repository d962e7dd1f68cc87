package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/humanize"
	"github.com/steer-tui/steer/agent/mcp"
	"github.com/steer-tui/steer/agent/tools"
	"github.com/steer-tui/steer/contextguard"
)

// An MCP server allowed to sample (allowSampling) asks the model for a
// completion while one of its tools runs. The request goes through the
// session's approval gate as a call of its own, named
// mcp__<server>:sampling (a name no server's tool can have): ask mode
// shows the request and waits for the user, auto answers it, never refuses
// it, and "always" lasts for the session like any tool's. Once allowed, the
// current model answers through the attempt loop (profiles, fallbacks)
// under the run's spend cap, without tools.

// SamplingToolName is the name a server's sampling requests go by in the
// approval dialog and in a session's "always" answers.
func SamplingToolName(server string) string { return mcp.ToolPrefix + server + ":sampling" }

// samplingExcerpt is how much of each message the approval dialog shows.
const samplingExcerpt = 400

// withSampler is the tool call's context with the runtime's answer to its
// server's sampling requests.
func (r *Runtime) withSampler(ctx context.Context, callID string) context.Context {
	var n atomic.Int64 // a server may send several requests at once
	return mcp.WithSampler(ctx, func(sctx context.Context, req mcp.SamplingRequest) (mcp.SamplingResult, error) {
		return r.sample(sctx, fmt.Sprintf("%s:sampling:%d", callID, n.Add(1)), req)
	})
}

// sample asks the gate, then the model.
func (r *Runtime) sample(ctx context.Context, id string, req mcp.SamplingRequest) (mcp.SamplingResult, error) {
	call := &samplingCall{r: r, req: req}
	gated := r.mcpDesk.currentGate().Wrap([]agent.Tool{call})[0]
	res, err := gated.Execute(ctx, id, call.args(), nil)
	switch {
	case err != nil:
		return mcp.SamplingResult{}, err
	case !call.ran:
		return mcp.SamplingResult{}, fmt.Errorf("sampling refused: %s", resultText(res))
	case call.err != nil:
		return mcp.SamplingResult{}, call.err
	}
	return call.res, nil
}

// samplingCall is one sampling request as a tool behind the gate: running
// it asks the model.
type samplingCall struct {
	r   *Runtime
	req mcp.SamplingRequest

	ran bool
	res mcp.SamplingResult
	err error
}

func (c *samplingCall) Spec() agent.ToolSpec {
	return agent.ToolSpec{Name: SamplingToolName(c.req.Server)}
}

// Describe makes the request one that asks in ask mode: it spends the
// user's money and sends the server's text to the provider.
func (c *samplingCall) Describe(map[string]any) tools.Access {
	m := c.r.agent.State().Model
	last := ""
	if n := len(c.req.Messages); n > 0 {
		last = humanize.Clip(c.req.Messages[n-1].TextContent(), 80)
	}
	return tools.Access{Mutating: true,
		Summary: fmt.Sprintf("MCP %s asks %s for a completion: %q", c.req.Server, m.ID, last)}
}

// args are the request as the approval dialog lists it.
func (c *samplingCall) args() map[string]any {
	msgs := make([]any, len(c.req.Messages))
	for i, m := range c.req.Messages {
		msgs[i] = map[string]any{"role": string(m.Role), "text": humanize.Clip(m.TextContent(), samplingExcerpt)}
	}
	args := map[string]any{"messages": msgs}
	if c.req.SystemPrompt != "" {
		args["systemPrompt"] = humanize.Clip(c.req.SystemPrompt, samplingExcerpt)
	}
	if c.req.MaxTokens > 0 {
		args["maxTokens"] = c.req.MaxTokens
	}
	return args
}

func (c *samplingCall) Execute(ctx context.Context, _ string, _ map[string]any, _ agent.ToolUpdate) (agent.ToolResult, error) {
	c.ran = true
	c.res, c.err = c.r.sampleModel(ctx, c.req)
	if c.err != nil {
		return agent.ErrorResult(c.err.Error()), nil
	}
	return agent.TextResult(c.res.Text), nil
}

// sampleModel asks the current model for req's completion, within the
// run's spend cap, and counts what it cost.
func (r *Runtime) sampleModel(ctx context.Context, req mcp.SamplingRequest) (mcp.SamplingResult, error) {
	m := r.agent.State().Model
	llm := agent.LLMContext{SystemPrompt: req.SystemPrompt, Messages: req.Messages}
	stop, _, err := r.spend.check(ctx, r.lane.held(), m, contextguard.EstimateContext(llm))
	switch {
	case err != nil:
		r.log.Warn("the budget could not be checked", "session", r.SessionID(), "err", err)
	case stop != nil:
		return mcp.SamplingResult{}, errors.New(stop.Message)
	}
	s := r.attempts.stream(ctx, m, llm, agent.StreamOptions{Thinking: agent.ThinkingOff, MaxTokens: req.MaxTokens, SessionID: r.SessionID()})
	defer s.Close()
	for range s.Events() {
	}
	final, err := s.Result(ctx)
	if err != nil {
		return mcp.SamplingResult{}, err
	}
	r.spendCharge(agent.AssistantEvent{Partial: final})
	switch final.StopReason {
	case agent.StopReasonError, agent.StopReasonAborted:
		return mcp.SamplingResult{}, fmt.Errorf("the model did not answer: %s", final.ErrorMessage)
	}
	reason := "endTurn"
	if final.StopReason == agent.StopReasonLength {
		reason = "maxTokens"
	}
	return mcp.SamplingResult{Text: final.TextContent(), Model: final.Model, StopReason: reason}, nil
}

// resultText is a result's text blocks, joined.
func resultText(res agent.ToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if c.Type == agent.ContentText {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}
