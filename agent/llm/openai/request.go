package openai

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/steer-tui/steer/agent"
)

// Placeholders for what a request cannot carry.
const (
	imageOmitted     = "(image omitted: the model does not accept images)"
	toolImagesHeader = "Attached image(s) from tool result:"
)

// buildParams turns the kernel's context into a Chat Completions request.
// official selects the fields only api.openai.com takes.
func buildParams(model agent.Model, llm agent.LLMContext, opts agent.StreamOptions, official bool) (sdk.ChatCompletionNewParams, error) {
	p := sdk.ChatCompletionNewParams{
		Model:         model.ID,
		Messages:      messagesOf(model, llm),
		StreamOptions: sdk.ChatCompletionStreamOptionsParam{IncludeUsage: sdk.Bool(true)},
	}
	tools, err := toolsOf(llm.Tools)
	if err != nil {
		return p, err
	}
	p.Tools = tools
	if opts.MaxTokens > 0 {
		if official {
			p.MaxCompletionTokens = sdk.Int(int64(opts.MaxTokens))
		} else {
			p.MaxTokens = sdk.Int(int64(opts.MaxTokens))
		}
	}
	p.ReasoningEffort = effortOf(model, opts.Thinking)
	if official && opts.SessionID != "" {
		p.PromptCacheKey = sdk.String(opts.SessionID)
	}
	return p, nil
}

// effortOf maps a thinking level to reasoning_effort; models that do not
// reason, and the level off, send none.
func effortOf(model agent.Model, level agent.ThinkingLevel) shared.ReasoningEffort {
	if !model.Reasoning {
		return ""
	}
	switch level {
	case agent.ThinkingMinimal:
		return shared.ReasoningEffortMinimal
	case agent.ThinkingLow:
		return shared.ReasoningEffortLow
	case agent.ThinkingMedium:
		return shared.ReasoningEffortMedium
	case agent.ThinkingHigh:
		return shared.ReasoningEffortHigh
	case agent.ThinkingXHigh:
		return shared.ReasoningEffortXhigh
	}
	return ""
}

// messagesOf converts the system prompt and the replayable transcript.
func messagesOf(model agent.Model, llm agent.LLMContext) []sdk.ChatCompletionMessageParamUnion {
	images := acceptsImages(model)
	var out []sdk.ChatCompletionMessageParamUnion
	if llm.SystemPrompt != "" {
		out = append(out, sdk.SystemMessage(llm.SystemPrompt))
	}
	// Tool messages carry only text: a run of tool results is followed by one
	// user message with their images.
	var toolImages []sdk.ChatCompletionContentPartUnionParam
	flushImages := func() {
		if len(toolImages) > 0 {
			parts := append([]sdk.ChatCompletionContentPartUnionParam{sdk.TextContentPart(toolImagesHeader)}, toolImages...)
			out = append(out, sdk.UserMessage(parts))
			toolImages = nil
		}
	}
	for _, m := range agent.Replayable(llm.Messages) {
		if m.Role != agent.RoleToolResult {
			flushImages()
		}
		switch m.Role {
		case agent.RoleUser:
			out = append(out, userMessage(m.Content, images))
		case agent.RoleAssistant:
			if a, ok := assistantMessage(m); ok {
				out = append(out, a)
			}
		case agent.RoleToolResult:
			text, imgs := toolResultParts(m.Content, images)
			out = append(out, sdk.ToolMessage(text, m.ToolCallID))
			toolImages = append(toolImages, imgs...)
		}
	}
	flushImages()
	return out
}

func userMessage(blocks []agent.Content, images bool) sdk.ChatCompletionMessageParamUnion {
	if len(blocks) == 1 && blocks[0].Type == agent.ContentText {
		return sdk.UserMessage(blocks[0].Text)
	}
	parts := make([]sdk.ChatCompletionContentPartUnionParam, 0, len(blocks))
	for _, c := range blocks {
		switch {
		case c.Type == agent.ContentText && c.Text != "":
			parts = append(parts, sdk.TextContentPart(c.Text))
		case c.Type == agent.ContentImage && images:
			parts = append(parts, imagePart(c))
		case c.Type == agent.ContentImage:
			parts = append(parts, sdk.TextContentPart(imageOmitted))
		}
	}
	if len(parts) == 0 {
		return sdk.UserMessage("")
	}
	return sdk.UserMessage(parts)
}

// assistantMessage sends the text and tool calls back; thinking has no field
// in Chat Completions. A message left with neither is skipped.
func assistantMessage(m agent.Message) (sdk.ChatCompletionMessageParamUnion, bool) {
	var a sdk.ChatCompletionAssistantMessageParam
	var text strings.Builder
	for _, c := range m.Content {
		switch c.Type {
		case agent.ContentText:
			text.WriteString(c.Text)
		case agent.ContentToolCall:
			args, err := json.Marshal(c.Arguments)
			if err != nil || c.Arguments == nil {
				args = []byte("{}")
			}
			a.ToolCalls = append(a.ToolCalls, sdk.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{
					ID:       c.ID,
					Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: string(args)},
				},
			})
		}
	}
	if text.Len() == 0 && len(a.ToolCalls) == 0 {
		return sdk.ChatCompletionMessageParamUnion{}, false
	}
	if text.Len() > 0 {
		a.Content.OfString = sdk.String(text.String())
	}
	return sdk.ChatCompletionMessageParamUnion{OfAssistant: &a}, true
}

// toolResultParts splits a tool result into its text and its images.
func toolResultParts(blocks []agent.Content, images bool) (string, []sdk.ChatCompletionContentPartUnionParam) {
	var texts []string
	var imgs []sdk.ChatCompletionContentPartUnionParam
	for _, c := range blocks {
		switch {
		case c.Type == agent.ContentText:
			texts = append(texts, c.Text)
		case c.Type == agent.ContentImage && images:
			imgs = append(imgs, imagePart(c))
		case c.Type == agent.ContentImage:
			texts = append(texts, imageOmitted)
		}
	}
	return strings.Join(texts, "\n"), imgs
}

func imagePart(c agent.Content) sdk.ChatCompletionContentPartUnionParam {
	return sdk.ImageContentPart(sdk.ChatCompletionContentPartImageImageURLParam{
		URL: "data:" + c.MimeType + ";base64," + c.Data,
	})
}

// acceptsImages is true unless the model lists its inputs without "image".
func acceptsImages(m agent.Model) bool {
	return len(m.Input) == 0 || slices.Contains(m.Input, "image")
}

// toolsOf is nil for no tools, so the request has no "tools" field at all:
// some servers refuse an empty list, and a summariser request carries none.
func toolsOf(specs []agent.ToolSpec) ([]sdk.ChatCompletionToolUnionParam, error) {
	if len(specs) == 0 {
		return nil, nil
	}
	out := make([]sdk.ChatCompletionToolUnionParam, 0, len(specs))
	for _, t := range specs {
		schema := map[string]any{"type": "object", "properties": map[string]any{}}
		if len(t.Parameters) > 0 {
			schema = nil
			if err := json.Unmarshal(t.Parameters, &schema); err != nil || schema == nil {
				return nil, fmt.Errorf("tool %q: parameters are not a JSON object", t.Name)
			}
		}
		def := shared.FunctionDefinitionParam{Name: t.Name, Parameters: schema}
		if t.Description != "" {
			def.Description = sdk.String(t.Description)
		}
		out = append(out, sdk.ChatCompletionFunctionTool(def))
	}
	return out, nil
}
