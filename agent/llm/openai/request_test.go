package openai

import (
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/llmtest"
)

// TestRequestGolden checks the wire form of a request with a system prompt,
// tools, images, tool calls and results, thinking, and repaired turns.
func TestRequestGolden(t *testing.T) { llmtest.CheckRequestGolden(t, harness().ContractHarness) }

// TestRequestOptions checks how options and model traits reach the request.
func TestRequestOptions(t *testing.T) {
	reasoning := testModel
	reasoning.Reasoning = true
	textOnly := testModel
	textOnly.Input = []string{"text"}
	user := agent.LLMContext{Messages: []agent.Message{{Role: agent.RoleUser, Content: []agent.Content{agent.Text("look"), llmtest.Image()}}}}
	tests := []struct {
		name     string
		model    agent.Model
		llm      agent.LLMContext
		opts     agent.StreamOptions
		official bool
		want     map[string]any // top-level fields; nil value means absent
	}{
		{name: "no tools, no tools field", model: testModel, want: map[string]any{"tools": nil, "tool_choice": nil}},
		{name: "max tokens elsewhere", model: testModel, opts: agent.StreamOptions{MaxTokens: 100},
			want: map[string]any{"max_tokens": 100.0, "max_completion_tokens": nil, "prompt_cache_key": nil}},
		{name: "max tokens and cache key at openai", model: testModel, official: true,
			opts: agent.StreamOptions{MaxTokens: 100, SessionID: "s"},
			want: map[string]any{"max_completion_tokens": 100.0, "max_tokens": nil, "prompt_cache_key": "s"}},
		{name: "no max tokens", model: testModel, want: map[string]any{"max_tokens": nil, "max_completion_tokens": nil}},
		{name: "reasoning effort", model: reasoning, opts: agent.StreamOptions{Thinking: agent.ThinkingMinimal},
			want: map[string]any{"reasoning_effort": "minimal"}},
		{name: "xhigh", model: reasoning, opts: agent.StreamOptions{Thinking: agent.ThinkingXHigh},
			want: map[string]any{"reasoning_effort": "xhigh"}},
		{name: "thinking off", model: reasoning, opts: agent.StreamOptions{Thinking: agent.ThinkingOff},
			want: map[string]any{"reasoning_effort": nil}},
		{name: "not a reasoning model", model: testModel, opts: agent.StreamOptions{Thinking: agent.ThinkingHigh},
			want: map[string]any{"reasoning_effort": nil}},
		{name: "usage always asked", model: testModel,
			want: map[string]any{"stream_options": map[string]any{"include_usage": true}, "model": "gpt-test"}},
		{name: "images to a text-only model", model: textOnly, llm: user,
			want: map[string]any{"messages": []any{map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "text", "text": "look"},
				map[string]any{"type": "text", "text": imageOmitted}}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			params, err := buildParams(tt.model, tt.llm, tt.opts, tt.official)
			if err != nil {
				t.Fatal(err)
			}
			llmtest.CheckFields(t, params, tt.want)
		})
	}
}
