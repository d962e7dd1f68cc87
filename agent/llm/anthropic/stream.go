package anthropic

import (
	"fmt"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/llmhttp"
)

// handler turns the events of one response into StreamWriter calls.
type handler struct {
	w     *agent.StreamWriter
	model agent.Model

	usage      agent.Usage
	stopReason string // from message_delta
	stopped    bool   // message_stop arrived
	hasContent bool
	calls      int

	toolOpen  bool   // the open block is a tool_use
	toolInput string // input sent whole with content_block_start, used if no delta follows
	skip      bool   // the open block is of a kind not handled (server tools)
}

func newHandler(w *agent.StreamWriter, model agent.Model) *handler {
	return &handler{w: w, model: model}
}

// event handles one event and reports whether it carried progress for the
// idle watchdog: every event of the message's lifecycle does (its start, a
// block's start, delta and stop, usage, the stop). Unknown events are
// ignored, as the API asks of clients, and are not progress; pings and
// error events never get here (eventStream drops the one and returns the other
// as an error, see failure). An error ends the response.
func (h *handler) event(ev *messageEvent) (progress bool, err *agent.ProviderError) {
	switch ev.Type {
	case "message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop":
		return true, h.apply(ev)
	}
	return false, nil
}

// apply handles one event of the message's lifecycle.
func (h *handler) apply(ev *messageEvent) *agent.ProviderError {
	switch ev.Type {
	case "message_start":
		u := ev.MessageUsage
		h.usage = agent.Usage{Input: int(u.Input), Output: int(u.Output), CacheRead: int(u.CacheRead), CacheWrite: int(u.CacheWrite)}
		h.setUsage()
	case "content_block_start":
		h.blockStart(ev.ContentBlock)
	case "content_block_delta":
		return h.blockDelta(ev.Delta)
	case "content_block_stop":
		if h.toolOpen && h.toolInput != "" {
			h.w.ToolCallDelta(h.toolInput)
		}
		h.w.EndBlock()
		h.toolOpen, h.toolInput, h.skip = false, "", false
	case "message_delta":
		if ev.Delta.StopReason != "" {
			h.stopReason = ev.Delta.StopReason
		}
		h.deltaUsage(ev.Usage)
	case "message_stop":
		h.stopped = true
	}
	return nil
}

func (h *handler) blockStart(cb contentBlock) {
	h.w.EndBlock() // a block left open by a missing content_block_stop
	h.toolOpen, h.toolInput, h.skip = false, "", false
	switch cb.Type {
	case "text":
		if cb.Text != "" {
			h.w.TextDelta(cb.Text)
			h.hasContent = true
		}
	case "thinking":
		if cb.Thinking != "" {
			h.w.ThinkingDelta(cb.Thinking)
			h.hasContent = true
		}
		if cb.Signature != "" {
			h.w.ThinkingSignature(cb.Signature)
		}
	case "redacted_thinking":
		h.w.RedactedThinking(cb.Data)
		h.hasContent = true
	case "tool_use":
		h.w.ToolCallStart(cb.ID, cb.Name)
		h.toolOpen, h.hasContent = true, true
		h.calls++
		h.toolInput = cb.Input
	default:
		h.skip = true
	}
}

func (h *handler) blockDelta(d eventDelta) *agent.ProviderError {
	if h.skip {
		return nil
	}
	switch d.Type {
	case "text_delta":
		if d.Text != "" {
			h.w.TextDelta(d.Text)
			h.hasContent, h.toolOpen = true, false
		}
	case "thinking_delta":
		if d.Thinking != "" {
			h.w.ThinkingDelta(d.Thinking)
			h.hasContent, h.toolOpen = true, false
		}
	case "signature_delta":
		h.w.ThinkingSignature(d.Signature)
	case "input_json_delta":
		if !h.toolOpen {
			return &agent.ProviderError{Kind: agent.ErrorMalformed,
				Message: llmhttp.ProviderName(h.model, "anthropic") + ": input_json_delta outside a tool_use block"}
		}
		h.toolInput = ""
		if d.PartialJSON != "" {
			h.w.ToolCallDelta(d.PartialJSON)
		}
	}
	return nil
}

// deltaUsage applies message_delta's usage: cumulative counts, of which
// only the output is always present.
func (h *handler) deltaUsage(u usageCounts) {
	if u.HasOutput {
		h.usage.Output = int(u.Output)
	}
	if u.HasInput {
		h.usage.Input = int(u.Input)
	}
	if u.HasCacheRead {
		h.usage.CacheRead = int(u.CacheRead)
	}
	if u.HasCacheWrite {
		h.usage.CacheWrite = int(u.CacheWrite)
	}
	h.setUsage()
}

func (h *handler) setUsage() {
	u := h.usage
	u.Cost = h.model.Cost.Price(u)
	h.w.SetUsage(u)
}

// end maps the stop reason once the stream is over.
func (h *handler) end() (agent.StopReason, *agent.ProviderError) {
	name := llmhttp.ProviderName(h.model, "anthropic")
	if !h.stopped {
		if h.hasContent {
			return "", &agent.ProviderError{Kind: agent.ErrorStream,
				Message: name + " closed the stream before message_stop (the response is incomplete)"}
		}
		return "", &agent.ProviderError{Kind: agent.ErrorEmpty, Message: name + " sent a response without any content"}
	}
	switch h.stopReason {
	case "max_tokens":
		return agent.StopReasonLength, nil
	case "tool_use":
		return agent.StopReasonToolUse, nil
	case "refusal":
		return "", &agent.ProviderError{Kind: agent.ErrorStream, Type: "refusal",
			Message: name + " declined to answer (stop_reason refusal)"}
	case "model_context_window_exceeded":
		return "", &agent.ProviderError{Kind: agent.ErrorStream, Type: "model_context_window_exceeded",
			Message: fmt.Sprintf("the conversation exceeds the context window of %s (stop_reason model_context_window_exceeded)", h.model.ID)}
	}
	if !h.hasContent {
		return "", &agent.ProviderError{Kind: agent.ErrorEmpty, Message: name + " sent a response without any content"}
	}
	if h.calls > 0 {
		return agent.StopReasonToolUse, nil
	}
	return agent.StopReasonStop, nil
}
