package openai

import (
	"fmt"
	"math/rand/v2"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/llmhttp"
)

// handler turns the chunks of one response into StreamWriter calls.
type handler struct {
	w     *agent.StreamWriter
	model agent.Model

	calls    map[int64]*toolCall // by the chunks' tool-call index
	lastCall int64               // index of the most recent call
	openCall bool                // whether lastCall is the writer's open block

	finish     string // the last finish_reason seen
	hasContent bool
	started    bool // a chunk named the assistant's role: the message's start
}

type toolCall struct{ id, name string }

func newHandler(w *agent.StreamWriter, model agent.Model) *handler {
	return &handler{w: w, model: model, calls: map[int64]*toolCall{}}
}

// chunk handles one chunk and reports whether it carried progress for the
// idle watchdog: the first chunk naming the assistant's role (the message's
// start), a content, reasoning or tool-call delta, usage, or a finish reason.
// An empty chunk — no choices, or an empty delta, as proxies send while the
// model is stalled — is not progress. An error ends the response.
func (h *handler) chunk(c *completionChunk) (progress bool, err *agent.ProviderError) {
	if c.HasUsage {
		h.w.SetUsage(usageOf(c.Usage, h.model))
		progress = true
	}
	for _, ch := range c.Choices {
		if ch.Index != 0 { // n is never set, so only choice 0 exists
			continue
		}
		if ch.Delta.Role != "" && !h.started {
			h.started, progress = true, true
		}
		wrote, err := h.delta(ch.Delta)
		if err != nil {
			return progress, err
		}
		progress = progress || wrote
		if ch.FinishReason != "" {
			h.finish, progress = ch.FinishReason, true
		}
	}
	return progress, nil
}

// delta writes a choice's delta and reports whether it had anything in it.
func (h *handler) delta(d delta) (wrote bool, err *agent.ProviderError) {
	if r := d.Reasoning; r != "" {
		h.w.ThinkingDelta(r)
		h.openCall, h.hasContent, wrote = false, true, true
	}
	for _, s := range []string{d.Content, d.Refusal} {
		if s != "" {
			h.w.TextDelta(s)
			h.openCall, h.hasContent, wrote = false, true, true
		}
	}
	for _, tc := range d.ToolCalls {
		if err := h.toolCallDelta(tc); err != nil {
			return wrote, err
		}
		wrote = true
	}
	return wrote, nil
}

// toolCallDelta starts a call the first time its index appears and appends
// argument pieces to it. The writer has one open block, so a call can only
// grow while it is the latest: a server that interleaves the pieces of several
// calls gets a clear error rather than calls with each other's arguments.
func (h *handler) toolCallDelta(tc toolCallDelta) *agent.ProviderError {
	idx := h.indexOf(tc)
	call, known := h.calls[idx]
	switch {
	case !known:
		id := tc.ID
		if id == "" { // some servers never send one; results must refer to something
			id = fmt.Sprintf("call_%08x_%d", rand.Uint32(), idx)
		}
		call = &toolCall{id: id, name: tc.Name}
		h.calls[idx] = call
		h.lastCall, h.openCall, h.hasContent = idx, true, true
		h.w.ToolCallStart(call.id, call.name)
	case idx != h.lastCall || !h.openCall:
		return &agent.ProviderError{Kind: agent.ErrorMalformed, Message: fmt.Sprintf(
			"%s: tool call %d continued after other content had started; interleaved tool-call deltas are not supported",
			llmhttp.ProviderName(h.model, "openai"), idx)}
	case (tc.ID != "" && tc.ID != call.id) || (call.name == "" && tc.Name != ""):
		if tc.ID != "" {
			call.id = tc.ID
		}
		if call.name == "" {
			call.name = tc.Name
		}
		h.w.SetToolCallID(call.id, call.name)
	}
	if tc.Arguments != "" {
		h.w.ToolCallDelta(tc.Arguments)
	}
	return nil
}

// indexOf is the call's index; a server that omits it (older Ollama and
// Mistral) is read as starting a new call whenever a new id appears.
func (h *handler) indexOf(tc toolCallDelta) int64 {
	if tc.HasIndex {
		return tc.Index
	}
	if len(h.calls) == 0 {
		return 0
	}
	if tc.ID != "" && tc.ID != h.calls[h.lastCall].id {
		return int64(len(h.calls))
	}
	return h.lastCall
}

// end maps the finish reason once the stream is over.
func (h *handler) end() (agent.StopReason, *agent.ProviderError) {
	name := llmhttp.ProviderName(h.model, "openai")
	switch h.finish {
	case "length":
		return agent.StopReasonLength, nil
	case "tool_calls", "function_call":
		return agent.StopReasonToolUse, nil
	case "content_filter":
		return "", &agent.ProviderError{Kind: agent.ErrorStream, Type: "content_filter",
			Message: name + " stopped the response with its content filter"}
	case "error": // OpenRouter, when the upstream failed mid-stream
		return "", &agent.ProviderError{Kind: agent.ErrorStream,
			Message: name + " ended the response with finish_reason error"}
	case "":
		if h.hasContent {
			return "", &agent.ProviderError{Kind: agent.ErrorStream,
				Message: name + " closed the stream before a finish reason (the response is incomplete)"}
		}
	}
	if !h.hasContent {
		return "", &agent.ProviderError{Kind: agent.ErrorEmpty,
			Message: name + " sent a response without any content"}
	}
	if len(h.calls) > 0 { // some servers say stop after calling tools
		return agent.StopReasonToolUse, nil
	}
	return agent.StopReasonStop, nil
}

// usageOf converts a usage object: prompt_tokens includes the cached tokens
// (and OpenRouter's cache writes), which the kernel counts apart.
func usageOf(u usage, model agent.Model) agent.Usage {
	cacheRead := int(u.CachedTokens)
	cacheWrite := int(u.CacheWriteTokens)
	out := agent.Usage{
		Input:      max(int(u.PromptTokens)-cacheRead-cacheWrite, 0),
		Output:     int(u.CompletionTokens),
		CacheRead:  cacheRead,
		CacheWrite: cacheWrite,
	}
	out.Cost = model.Cost.Price(out)
	return out
}
