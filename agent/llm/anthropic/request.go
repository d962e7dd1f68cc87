package anthropic

import (
	"encoding/json"
	"fmt"
	"slices"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/steer-tui/steer/agent"
)

// DefaultMaxTokens is max_tokens when neither the request nor the model sets
// one: the smallest maximum output of the Claude models, so it is always
// accepted. (seed)
const DefaultMaxTokens = 4096

// Thinking limits: the API's smallest budget, and the room kept for the
// answer when a budget has to shrink to fit under max_tokens. (seed)
const (
	minThinkingBudget = 1024
	minAnswerTokens   = 1024
)

// thinkingBudget is the budget_tokens of a thinking level (seed); ok is
// false for off. A switch rather than a map: package initialisation runs in
// every steer process, and a map literal is built there.
func thinkingBudget(level agent.ThinkingLevel) (budget int, ok bool) {
	switch level {
	case agent.ThinkingMinimal:
		return 1024, true
	case agent.ThinkingLow:
		return 2048, true
	case agent.ThinkingMedium:
		return 8192, true
	case agent.ThinkingHigh:
		return 16384, true
	case agent.ThinkingXHigh:
		return 32768, true
	}
	return 0, false
}

// adaptive reports the models that deprecate thinking budgets in favour of
// adaptive thinking; the SDK prints a warning to stderr — under the TUI —
// for a budget sent to them, so they get adaptive thinking with an effort
// instead.
func adaptive(modelID string) bool {
	switch modelID {
	case "claude-opus-4-6", "claude-mythos-preview":
		return true
	}
	return false
}

// Placeholders for what a request cannot carry.
const (
	imageOmitted = "(image omitted: the model does not accept images)"
)

// buildParams turns the kernel's context into a Messages request.
func buildParams(model agent.Model, llm agent.LLMContext, opts agent.StreamOptions) (sdk.MessageNewParams, error) {
	p := sdk.MessageNewParams{Model: model.ID, Messages: messagesOf(model, llm)}
	if llm.SystemPrompt != "" {
		p.System = []sdk.TextBlockParam{{Text: llm.SystemPrompt, CacheControl: sdk.NewCacheControlEphemeralParam()}}
	}
	tools, err := toolsOf(llm.Tools)
	if err != nil {
		return p, err
	}
	p.Tools = tools
	maxTokens := opts.MaxTokens
	if maxTokens <= 0 {
		maxTokens = model.MaxOutput
	}
	if maxTokens <= 0 {
		maxTokens = DefaultMaxTokens
	}
	applyThinking(&p, model, opts.Thinking, maxTokens)
	return p, nil
}

// applyThinking sets max_tokens and, for a reasoning model asked to think,
// the thinking budget: max_tokens grows by the budget (up to the model's
// maximum), and a budget that no longer fits shrinks, or thinking is left off
// when there is no room for the API's smallest budget.
func applyThinking(p *sdk.MessageNewParams, model agent.Model, level agent.ThinkingLevel, maxTokens int) {
	p.MaxTokens = int64(maxTokens)
	budget, ok := thinkingBudget(level)
	if !model.Reasoning || !ok {
		return
	}
	if adaptive(model.ID) {
		p.Thinking = sdk.ThinkingConfigParamUnion{OfAdaptive: &sdk.ThinkingConfigAdaptiveParam{}}
		p.OutputConfig = sdk.OutputConfigParam{Effort: effortOf(level)}
		return
	}
	total := maxTokens + budget
	if model.MaxOutput > 0 {
		total = min(total, model.MaxOutput)
	}
	budget = min(budget, total-minAnswerTokens)
	if budget < minThinkingBudget {
		return
	}
	p.MaxTokens = int64(total)
	p.Thinking = sdk.ThinkingConfigParamOfEnabled(int64(budget))
}

func effortOf(level agent.ThinkingLevel) sdk.OutputConfigEffort {
	switch level {
	case agent.ThinkingMinimal, agent.ThinkingLow:
		return sdk.OutputConfigEffortLow
	case agent.ThinkingMedium:
		return sdk.OutputConfigEffortMedium
	case agent.ThinkingHigh:
		return sdk.OutputConfigEffortHigh
	}
	return sdk.OutputConfigEffortMax
}

// messagesOf converts the replayable transcript, merging each run of tool
// results into one user message, and marks the last user message as a cache
// breakpoint.
func messagesOf(model agent.Model, llm agent.LLMContext) []sdk.MessageParam {
	images := acceptsImages(model)
	var out []sdk.MessageParam
	var results []sdk.ContentBlockParamUnion
	flush := func() {
		if len(results) > 0 {
			out = append(out, sdk.NewUserMessage(results...))
			results = nil
		}
	}
	for _, m := range agent.Replayable(llm.Messages) {
		if m.Role != agent.RoleToolResult {
			flush()
		}
		switch m.Role {
		case agent.RoleUser:
			if blocks := userBlocks(m.Content, images); len(blocks) > 0 {
				out = append(out, sdk.NewUserMessage(blocks...))
			}
		case agent.RoleAssistant:
			if blocks := assistantBlocks(m, model); len(blocks) > 0 {
				out = append(out, sdk.NewAssistantMessage(blocks...))
			}
		case agent.RoleToolResult:
			results = append(results, toolResultBlock(m, images))
		}
	}
	flush()
	for i := len(out) - 1; i >= 0; i-- {
		if u := out[i].OfUser; u != nil && len(u.Content) > 0 {
			if cc := u.Content[len(u.Content)-1].GetCacheControl(); cc != nil {
				*cc = sdk.NewCacheControlEphemeralParam()
			}
			break
		}
	}
	return out
}

// userBlocks converts a user message; empty text blocks, which the API
// rejects, are dropped.
func userBlocks(content []agent.Content, images bool) []sdk.ContentBlockParamUnion {
	var out []sdk.ContentBlockParamUnion
	for _, c := range content {
		switch {
		case c.Type == agent.ContentText && c.Text != "":
			out = append(out, sdk.NewTextBlock(c.Text))
		case c.Type == agent.ContentImage && images:
			out = append(out, sdk.NewImageBlockBase64(c.MimeType, c.Data))
		case c.Type == agent.ContentImage:
			out = append(out, sdk.NewTextBlock(imageOmitted))
		}
	}
	return out
}

// assistantBlocks converts an assistant message. Thinking goes back signed
// only to the provider and API that signed it; other thinking becomes text,
// and other redacted thinking, unreadable anywhere else, is dropped.
func assistantBlocks(m agent.Message, model agent.Model) []sdk.ContentBlockParamUnion {
	same := m.Provider == model.Provider && m.API == model.API
	var out []sdk.ContentBlockParamUnion
	for _, c := range m.Content {
		switch c.Type {
		case agent.ContentText:
			if c.Text != "" {
				out = append(out, sdk.NewTextBlock(c.Text))
			}
		case agent.ContentThinking:
			switch {
			case c.Redacted:
				if same && c.Signature != "" {
					out = append(out, sdk.NewRedactedThinkingBlock(c.Signature))
				}
			case same && c.Signature != "":
				out = append(out, sdk.NewThinkingBlock(c.Signature, c.Thinking))
			case c.Thinking != "":
				out = append(out, sdk.NewTextBlock(c.Thinking))
			}
		case agent.ContentToolCall:
			args := c.Arguments
			if args == nil {
				args = map[string]any{}
			}
			out = append(out, sdk.NewToolUseBlock(toolUseID(c.ID), args, c.Name))
		}
	}
	return out
}

func toolResultBlock(m agent.Message, images bool) sdk.ContentBlockParamUnion {
	blk := sdk.ToolResultBlockParam{ToolUseID: toolUseID(m.ToolCallID)}
	if m.IsError {
		blk.IsError = sdk.Bool(true)
	}
	for _, c := range m.Content {
		switch {
		case c.Type == agent.ContentText && c.Text != "":
			blk.Content = append(blk.Content, sdk.ToolResultBlockParamContentUnion{OfText: &sdk.TextBlockParam{Text: c.Text}})
		case c.Type == agent.ContentImage && images:
			blk.Content = append(blk.Content, sdk.ToolResultBlockParamContentUnion{OfImage: &sdk.ImageBlockParam{
				Source: sdk.ImageBlockParamSourceUnion{OfBase64: &sdk.Base64ImageSourceParam{
					Data: c.Data, MediaType: sdk.Base64ImageSourceMediaType(c.MimeType)}}}})
		case c.Type == agent.ContentImage:
			blk.Content = append(blk.Content, sdk.ToolResultBlockParamContentUnion{OfText: &sdk.TextBlockParam{Text: imageOmitted}})
		}
	}
	return sdk.ContentBlockParamUnion{OfToolResult: &blk}
}

// toolUseID makes a call id acceptable to the API (letters, digits, _ and -,
// at most 64): calls made by another provider ("functions.add:0") are
// replayed here after a fallback. The mapping is the same for the call and
// its result.
func toolUseID(id string) string {
	b := []byte(id)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	return string(b[:min(len(b), 64)])
}

// acceptsImages is true unless the model lists its inputs without "image".
func acceptsImages(m agent.Model) bool {
	return len(m.Input) == 0 || slices.Contains(m.Input, "image")
}

// toolsOf converts the tool specs; the schema's properties and required go
// to their fields, anything else (definitions, additionalProperties…) along.
// It is nil for no tools, so the request has no "tools" field at all: some
// servers refuse an empty list, and a summariser request carries none.
func toolsOf(specs []agent.ToolSpec) ([]sdk.ToolUnionParam, error) {
	if len(specs) == 0 {
		return nil, nil
	}
	out := make([]sdk.ToolUnionParam, 0, len(specs))
	for _, t := range specs {
		var schema map[string]any
		if len(t.Parameters) > 0 {
			if err := json.Unmarshal(t.Parameters, &schema); err != nil || schema == nil {
				return nil, fmt.Errorf("tool %q: parameters are not a JSON object", t.Name)
			}
		}
		in := sdk.ToolInputSchemaParam{Properties: schema["properties"]}
		if in.Properties == nil {
			in.Properties = map[string]any{}
		}
		if req, ok := schema["required"].([]any); ok {
			for _, r := range req {
				if s, ok := r.(string); ok {
					in.Required = append(in.Required, s)
				}
			}
		}
		for k, v := range schema {
			if k != "type" && k != "properties" && k != "required" {
				if in.ExtraFields == nil {
					in.ExtraFields = map[string]any{}
				}
				in.ExtraFields[k] = v
			}
		}
		tool := sdk.ToolParam{Name: t.Name, InputSchema: in}
		if t.Description != "" {
			tool.Description = sdk.String(t.Description)
		}
		out = append(out, sdk.ToolUnionParam{OfTool: &tool})
	}
	return out, nil
}
