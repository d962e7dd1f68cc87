package config

import (
	"strings"
	"testing"
)

// A provider whose server lists its models may list none itself, offers
// no catalogue models in their place, and resolves any of its ids, the
// server being the judge; "discover" needs the openai-chat API.
func TestDiscoverProvider(t *testing.T) {
	cfg := mustLoad(t, `{"model": "box/qwen3:8b", "providers": {
		"box": {"api": "openai-chat", "baseURL": "http://127.0.0.1:11434/v1", "discover": true},
		"lab": {"api": "openai-chat", "baseURL": "http://127.0.0.1:8000/v1", "discover": true,
			"models": [{"id": "served", "contextWindow": 4096}]},
		"openrouter": {"discover": true}}}`, map[string]string{"OPENROUTER_API_KEY": keyOpenRouter})
	tests := []struct {
		provider string
		models   int
	}{{"box", 0}, {"lab", 1}, {"openrouter", 0}}
	for _, tt := range tests {
		p, ok := cfg.Provider(tt.provider)
		if !ok || !p.Discover || len(p.Models) != tt.models {
			t.Errorf("%s: found %v, discover %v, %d models; want %d", tt.provider, ok, p.Discover, len(p.Models), tt.models)
		}
	}
	resolves := []struct {
		ref     string
		window  int
		baseURL string
	}{
		{"box/qwen3:8b", 0, "http://127.0.0.1:11434/v1"},
		{"lab/served", 4096, "http://127.0.0.1:8000/v1"},
		{"lab/other", 0, "http://127.0.0.1:8000/v1"},
		// The catalogue still describes the ids it knows.
		{"openrouter/anthropic/claude-sonnet-4.5", -1, "https://openrouter.ai/api/v1"},
	}
	for _, tt := range resolves {
		m, err := cfg.ResolveModel(tt.ref)
		if err != nil || m.Ref() != tt.ref || m.BaseURL != tt.baseURL || (tt.window >= 0 && m.ContextWindow != tt.window) ||
			(tt.window < 0 && m.ContextWindow <= 0) {
			t.Errorf("ResolveModel(%q) = %s window %d base %s, %v", tt.ref, m.Ref(), m.ContextWindow, m.BaseURL, err)
		}
	}
	if _, err := cfg.ResolveModel("qwen3:8b"); err == nil {
		t.Error("a bare id no provider lists resolved")
	}
	if cfg.Model != "box/qwen3:8b" {
		t.Errorf("model = %q", cfg.Model)
	}
}

func TestDiscoverNeedsOpenAIChat(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"anthropic", `{"providers": {"anthropic": {"discover": true}}}`,
			`providers.anthropic.discover: needs "api": "openai-chat", not "anthropic-messages"`},
		{"scripted", `{"providers": {"rehearse": {"api": "scripted", "discover": true}}}`,
			`providers.rehearse.discover: needs "api": "openai-chat", not "scripted"`},
		{"not a boolean", `{"providers": {"box": {"api": "openai-chat", "baseURL": "http://127.0.0.1:1/v1", "discover": "yes"}}}`,
			`providers.box.discover: want true or false, got a string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(writeConfig(t, tt.body), envOf(map[string]string{"ANTHROPIC_API_KEY": keyAnthropic}), defaultCatalogue)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %s", err, tt.want)
			}
		})
	}
}
