package failover

import (
	"testing"

	"github.com/steer-tui/steer/agent"
)

func TestKindOf(t *testing.T) {
	tests := []struct {
		api, baseURL string
		want         ProviderKind
	}{
		{"anthropic-messages", "https://api.anthropic.com", KindAnthropic},
		{"anthropic-messages", "http://127.0.0.1:8080", KindAnthropic}, // Anthropic's wire format, its error types
		{"openai-chat", "https://api.openai.com/v1", KindOpenAI},
		{"openai-chat", "https://openrouter.ai/api/v1", KindOpenRouter},
		{"openai-chat", "https://eu.openrouter.ai/api/v1", KindOpenRouter},
		{"openai-chat", "https://api.groq.com/openai/v1", KindGeneric},
		{"openai-chat", "http://127.0.0.1:11434/v1", KindGeneric},
		{"openai-chat", "https://notapi.openai.com.example/v1", KindGeneric},
		{"scripted", "", KindGeneric},
	}
	for _, tt := range tests {
		if got := KindOf(agent.Model{API: tt.api, BaseURL: tt.baseURL}); got != tt.want {
			t.Errorf("KindOf(%s, %s) = %q, want %q", tt.api, tt.baseURL, got, tt.want)
		}
	}
}

// TestClassifyFor: the same error means different things at different
// providers; a row per provider shows the refined reason next to what the
// same error means elsewhere (generic).
func TestClassifyFor(t *testing.T) {
	var (
		openai     = agent.Model{API: "openai-chat", BaseURL: "https://api.openai.com/v1"}
		openrouter = agent.Model{API: "openai-chat", BaseURL: "https://openrouter.ai/api/v1"}
		anthropic  = agent.Model{API: "anthropic-messages", BaseURL: "https://api.anthropic.com"}
		groq       = agent.Model{API: "openai-chat", BaseURL: "https://api.groq.com/openai/v1"}
	)
	quota := agent.ProviderError{Status: 429, Message: "You exceeded your current quota."}
	noRoute := agent.ProviderError{Status: 503, Message: "No available model provider that meets your routing requirements"}
	tests := []struct {
		name string
		m    agent.Model
		e    agent.ProviderError
		want Reason
	}{
		{"openai: a quota is money", openai, quota, ReasonBilling},
		{"elsewhere a quota is a window", groq, quota, ReasonRateLimit},
		{"openai: a quota in the body only", openai, agent.ProviderError{Status: 429, Body: `{"error":{"message":"You exceeded your current quota"}}`}, ReasonBilling},
		{"openai: a plain rate limit stays one", openai, agent.ProviderError{Status: 429, Code: "rate_limit_exceeded", Message: "Rate limit reached for gpt-4o on tokens per min"}, ReasonRateLimit},
		{"openai: insufficient_quota code", openai, agent.ProviderError{Status: 429, Type: "insufficient_quota", Code: "insufficient_quota", Message: "You exceeded your current quota, please check your plan and billing details."}, ReasonBilling},
		{"openrouter: no provider for the route falls back", openrouter, noRoute, ReasonModelNotFound},
		{"elsewhere a 503 is overloaded", groq, noRoute, ReasonOverloaded},
		{"openrouter: a busy 503 stays overloaded", openrouter, agent.ProviderError{Status: 503, Message: "Service temporarily unavailable"}, ReasonOverloaded},
		{"openrouter: 402 is billing", openrouter, agent.ProviderError{Status: 402, Message: "This request requires more credits, or fewer max_tokens. You requested up to 65536 tokens, but can only afford 10114."}, ReasonBilling},
		{"anthropic: 529 is overloaded", anthropic, agent.ProviderError{Status: 529, Type: "overloaded_error", Message: "Overloaded"}, ReasonOverloaded},
		{"anthropic: overloaded mid-stream (status 200)", anthropic, agent.ProviderError{Status: 200, Kind: agent.ErrorStream, Type: "overloaded_error", Message: "Overloaded"}, ReasonOverloaded},
		{"anthropic: 402 billing_error", anthropic, agent.ProviderError{Status: 402, Type: "billing_error", Message: "There is an issue with your billing information"}, ReasonBilling},
		{"anthropic: a quota wording stays a rate limit", anthropic, quota, ReasonRateLimit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := tt.e
			if got := ClassifyFor(tt.m, &e, nil); got != tt.want {
				t.Errorf("ClassifyFor = %s, want %s (generic: %s)", got, tt.want, ClassifyError(&e, nil))
			}
		})
	}
}
