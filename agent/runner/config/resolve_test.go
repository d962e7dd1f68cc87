package config

import (
	"strings"
	"sync"
	"testing"
)

const resolveConfig = `{
  "aliases": { "fast": "local/qwen3:8b", "sonnet": "anthropic/claude-sonnet-4-5" },
  "providers": {
    "local": { "api": "openai-chat", "baseURL": "http://127.0.0.1:11434/v1",
               "models": [ { "id": "qwen3:8b" }, { "id": "shared" } ] },
    "box": { "api": "openai-chat", "baseURL": "http://10.0.0.2:8000/v1", "models": [ { "id": "shared" } ] },
    "openai": {},
    "openrouter": {}
  }
}`

func TestResolveRef(t *testing.T) {
	cfg := mustLoad(t, resolveConfig, map[string]string{"OPENAI_API_KEY": keyOpenAI, "OPENROUTER_API_KEY": keyOpenRouter, "ANTHROPIC_API_KEY": keyAnthropic})
	tests := []struct {
		ref, provider, model string
		err                  string // a substring of the error
	}{
		{ref: "local/qwen3:8b", provider: "local", model: "qwen3:8b"},
		{ref: "fast", provider: "local", model: "qwen3:8b"},
		{ref: "sonnet", provider: "anthropic", model: "claude-sonnet-4-5"},
		{ref: "qwen3:8b", provider: "local", model: "qwen3:8b"},
		{ref: "gpt-4.1", provider: "openai", model: "gpt-4.1"},
		{ref: "openai/gpt-4.1", provider: "openai", model: "gpt-4.1"},
		{ref: "claude-sonnet-4-5", provider: "anthropic", model: "claude-sonnet-4-5"},
		{ref: "openrouter/anthropic/claude-sonnet-4.5", provider: "openrouter", model: "anthropic/claude-sonnet-4.5"},
		{ref: "box/shared", provider: "box", model: "shared"},
		{ref: "scripted/echo", provider: "scripted", model: "echo"},
		{ref: "tiny", provider: "scripted", model: "tiny"},
		{ref: "shared", err: `model "shared" is offered by several providers (local/shared, box/shared); write provider/model`},
		{ref: "nope", err: `unknown model "nope" (known: local/qwen3:8b, local/shared, box/shared, openai/`},
		{ref: "local/nope", err: `unknown model "local/nope": provider local has qwen3:8b, shared`},
		{ref: "mistral/large", err: `unknown provider "mistral" in "mistral/large" (known: local, box, openai, openrouter, anthropic, scripted)`},
		{ref: "", err: "empty model reference"},
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			p, m, err := cfg.ResolveRef(tt.ref)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || p != tt.provider || m != tt.model {
				t.Fatalf("= %q, %q, %v; want %q, %q", p, m, err, tt.provider, tt.model)
			}
			model, err := cfg.ResolveModel(tt.ref)
			if err != nil || model.Provider != p || model.ID != m {
				t.Fatalf("ResolveModel = %+v, %v", model, err)
			}
			if prov, ok := cfg.Provider(p); !ok || model.API != prov.API || model.BaseURL != prov.BaseURL {
				t.Errorf("model %+v does not carry provider %+v", model, prov)
			}
		})
	}
}

func TestResolveModelMetadata(t *testing.T) {
	cfg := mustLoad(t, resolveConfig, map[string]string{"OPENAI_API_KEY": keyOpenAI, "OPENROUTER_API_KEY": keyOpenRouter, "ANTHROPIC_API_KEY": keyAnthropic})
	m, err := cfg.ResolveModel("sonnet")
	if err != nil || m.ContextWindow <= 0 || m.MaxOutput <= 0 || !m.Reasoning || m.Cost.Input <= 0 || m.BaseURL != "https://api.anthropic.com" {
		t.Errorf("sonnet = %+v, %v", m, err)
	}
	// A resolved model is a copy: changing it changes nothing in the Config.
	m, _ = cfg.ResolveModel("gpt-4.1")
	m.Input[0] = "changed"
	if again, _ := cfg.ResolveModel("gpt-4.1"); again.Input[0] != "text" {
		t.Error("ResolveModel shares slices with the Config")
	}
}

func TestResolveConcurrent(t *testing.T) {
	cfg := mustLoad(t, resolveConfig, map[string]string{"OPENAI_API_KEY": keyOpenAI, "OPENROUTER_API_KEY": keyOpenRouter, "ANTHROPIC_API_KEY": keyAnthropic})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for _, ref := range []string{"fast", "gpt-4.1", "openai/o3", "scripted/echo", "nope"} {
				_, _, _ = cfg.ResolveRef(ref)
			}
		})
	}
	wg.Wait()
}

func TestResolveHandBuiltConfig(t *testing.T) {
	var cfg Config
	if p, m, err := cfg.ResolveRef("scripted/echo"); p != "scripted" || m != "echo" || err != nil {
		t.Errorf("= %q, %q, %v", p, m, err)
	}
	if _, _, err := cfg.ResolveRef("openai/gpt-4.1"); err == nil {
		t.Error("an empty Config resolved openai/gpt-4.1")
	}
	if p, ok := cfg.Provider("scripted"); !ok || len(p.Models) != 2 || p.Profiles[0].ID != "scripted:default" {
		t.Errorf("Provider(scripted) = %+v, %v", p, ok)
	}
}
