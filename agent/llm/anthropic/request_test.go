package anthropic

import (
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/llmtest"
)

// TestRequestGolden checks the wire form of a request with a system prompt,
// tools, images, tool calls and results, thinking, and repaired turns.
func TestRequestGolden(t *testing.T) { llmtest.CheckRequestGolden(t, harness().ContractHarness) }

// TestRequestOptions checks max_tokens, thinking budgets and images.
func TestRequestOptions(t *testing.T) {
	reasoning := testModel
	reasoning.Reasoning = true
	capped := reasoning
	capped.MaxOutput = 8000
	adaptive := reasoning
	adaptive.ID = "claude-opus-4-6"
	textOnly := testModel
	textOnly.Input = []string{"text"}
	user := agent.LLMContext{Messages: []agent.Message{{Role: agent.RoleUser, Content: []agent.Content{agent.Text("look"), llmtest.Image()}}}}
	tests := []struct {
		name  string
		model agent.Model
		llm   agent.LLMContext
		opts  agent.StreamOptions
		want  map[string]any // top-level fields; nil value means absent
	}{
		{name: "no tools, no tools field", model: testModel, want: map[string]any{"tools": nil, "tool_choice": nil}},
		{name: "default max tokens", model: testModel, want: map[string]any{"max_tokens": float64(DefaultMaxTokens), "thinking": nil}},
		{name: "model max output", model: capped, want: map[string]any{"max_tokens": 8000.0}},
		{name: "requested max tokens", model: capped, opts: agent.StreamOptions{MaxTokens: 1000}, want: map[string]any{"max_tokens": 1000.0}},
		{name: "thinking raises max tokens", model: reasoning, opts: agent.StreamOptions{Thinking: agent.ThinkingMedium, MaxTokens: 2000},
			want: map[string]any{"max_tokens": 10192.0, "thinking": map[string]any{"type": "enabled", "budget_tokens": 8192}}},
		{name: "budget shrinks under the model's maximum", model: capped, opts: agent.StreamOptions{Thinking: agent.ThinkingHigh},
			want: map[string]any{"max_tokens": 8000.0, "thinking": map[string]any{"type": "enabled", "budget_tokens": 6976}}},
		{name: "no room to think", model: capped, opts: agent.StreamOptions{Thinking: agent.ThinkingLow, MaxTokens: 8000},
			want: map[string]any{"max_tokens": 8000.0, "thinking": map[string]any{"type": "enabled", "budget_tokens": 2048}}},
		{name: "thinking off", model: reasoning, opts: agent.StreamOptions{Thinking: agent.ThinkingOff}, want: map[string]any{"thinking": nil}},
		{name: "not a reasoning model", model: testModel, opts: agent.StreamOptions{Thinking: agent.ThinkingHigh},
			want: map[string]any{"thinking": nil}},
		{name: "adaptive model", model: adaptive, opts: agent.StreamOptions{Thinking: agent.ThinkingXHigh},
			want: map[string]any{"thinking": map[string]any{"type": "adaptive"}, "output_config": map[string]any{"effort": "max"},
				"max_tokens": float64(DefaultMaxTokens)}},
		{name: "images to a text-only model", model: textOnly, llm: user,
			want: map[string]any{"messages": []any{map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "text", "text": "look"},
				map[string]any{"type": "text", "text": imageOmitted, "cache_control": map[string]any{"type": "ephemeral"}}}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			params, err := buildParams(tt.model, tt.llm, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			llmtest.CheckFields(t, params, tt.want)
		})
	}
}

func TestToolUseID(t *testing.T) {
	for in, want := range map[string]string{
		"toolu_01Js4AMfx5qpTLhwTusnvT68": "toolu_01Js4AMfx5qpTLhwTusnvT68",
		"functions.add:0":                "functions_add_0",
		strings.Repeat("a", 70):          strings.Repeat("a", 64),
	} {
		if got := toolUseID(in); got != want {
			t.Errorf("toolUseID(%q) = %q, want %q", in, got, want)
		}
	}
}
