package config

import (
	"github.com/steer-tui/steer/agent/llm"

	"testing"
)

func TestCatalogueLookup(t *testing.T) {
	tests := []struct {
		kind, id, wantID, api string
	}{
		{"anthropic", "claude-sonnet-4-5", "claude-sonnet-4-5-20250929", llm.AnthropicMessages},
		{"anthropic", "claude-sonnet-4-5-20250929", "claude-sonnet-4-5-20250929", llm.AnthropicMessages},
		{"openai", "gpt-4.1", "gpt-4.1", llm.OpenAIChat},
		{"openrouter", "anthropic/claude-sonnet-4.5", "anthropic/claude-sonnet-4.5", llm.OpenAIChat},
		{"groq", "moonshotai/kimi-k2-instruct-0905", "moonshotai/kimi-k2-instruct-0905", llm.OpenAIChat},
		{"deepseek", "deepseek-v4-pro", "deepseek-v4-pro", llm.OpenAIChat},
	}
	for _, tt := range tests {
		t.Run(tt.kind+"/"+tt.id, func(t *testing.T) {
			m, ok := defaultCatalogue().lookup(tt.kind, tt.id)
			if !ok {
				t.Fatal("not found")
			}
			if m.ID != tt.wantID || m.Provider != tt.kind || m.API != tt.api || m.ContextWindow <= 0 || m.MaxOutput <= 0 ||
				m.Name == "" || len(m.Input) == 0 || m.Input[0] != "text" || m.BaseURL == "" {
				t.Errorf("= %+v", m)
			}
		})
	}
	for _, miss := range [][2]string{{"openai", "gpt-9"}, {"nope", "gpt-4.1"}, {"anthropic", "claude-sonnet"}} {
		if m, ok := defaultCatalogue().lookup(miss[0], miss[1]); ok {
			t.Errorf("defaultCatalogue().lookup(%q, %q) = %+v", miss[0], miss[1], m)
		}
	}
}

func TestCatalogueModelsOfAKind(t *testing.T) {
	ms := defaultCatalogue().models("openai")
	if len(ms) == 0 || ms[0].Provider != "openai" {
		t.Fatalf("openai: %d models", len(ms))
	}
	ms[0].ID = "changed"
	if defaultCatalogue().models("openai")[0].ID == "changed" {
		t.Error("models shares its slice")
	}
	if ms := defaultCatalogue().models("nope"); ms != nil {
		t.Errorf("nope: %v", ms)
	}
}

func TestUndated(t *testing.T) {
	for in, want := range map[string]string{
		"claude-sonnet-4-5-20250929": "claude-sonnet-4-5",
		"claude-haiku-4-5-20251001":  "claude-haiku-4-5",
		"gpt-4.1":                    "",
		"-20250929":                  "",
		"model-2025092x":             "",
		"model-202509291":            "",
	} {
		got, ok := undated(in)
		if got != want || ok != (want != "") {
			t.Errorf("undated(%q) = %q, %v", in, got, ok)
		}
	}
}

func TestKindOfByBaseURL(t *testing.T) {
	cat := defaultCatalogue()
	for _, tt := range []struct{ name, url, want string }{
		{"openai", "", "openai"},
		{"work", "https://api.openai.com/v1", "openai"},
		{"fast", "https://api.groq.com/openai/v1", "groq"},
		{"local", "http://127.0.0.1:11434/v1", ""},
		{"corp", "https://llm.corp.example/v1", ""},
	} {
		got := ""
		if cp := cat.kindOf(tt.name, tt.url); cp != nil {
			got = cp.kind
		}
		if got != tt.want {
			t.Errorf("kindOf(%q, %q) = %q, want %q", tt.name, tt.url, got, tt.want)
		}
	}
}
