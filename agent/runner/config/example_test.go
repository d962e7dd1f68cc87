package config_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/steer-tui/steer/agent/llm"
	"github.com/steer-tui/steer/agent/runner/config"
	"github.com/steer-tui/steer/assets"
)

// apis are the provider APIs a configuration may name; main registers
// each with its client's constructor (llm.API.New).
var apis = llm.APIs{
	{Name: llm.OpenAIChat, CatalogueTypes: []string{"openai", "openai-compat", "openrouter", "vercel"}},
	{Name: llm.AnthropicMessages, CatalogueTypes: []string{"anthropic"}},
	{Name: llm.Scripted, Models: assets.OfflineModels},
}

func ExampleLoad() {
	dir, _ := os.MkdirTemp("", "steer-config")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "config.json")
	_ = os.WriteFile(path, []byte(`{
  "model": "fast",
  "aliases": { "fast": "local/qwen3:8b" },
  "providers": {
    "local": {
      "api": "openai-chat",
      "baseURL": "http://127.0.0.1:11434/v1",
      "models": [ { "id": "qwen3:8b", "contextWindow": 32768 } ]
    }
  },
  "agent": { "thinking": "low" }
}`), 0o600)

	env := map[string]string{} // os.Getenv in production
	cfg, err := config.Load(path, func(name string) string { return env[name] }, apis)
	if err != nil {
		fmt.Println(err)
		return
	}
	m, _ := cfg.ResolveModel(cfg.Model)
	p, _ := cfg.Provider(m.Provider)
	fmt.Println(m.Ref(), m.ContextWindow, p.SelfHosted(), p.Profiles[0].ID, cfg.Agent.Thinking)
	// Output: local/qwen3:8b 32768 true local:default low
}

func ExampleLoad_error() {
	dir, _ := os.MkdirTemp("", "steer-config")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "config.json")
	_ = os.WriteFile(path, []byte("{\n  \"providers\": {\n    \"local\": { \"baseUrl\": \"http://127.0.0.1:8080\" }\n  }\n}"), 0o600)

	_, err := config.Load(path, func(string) string { return "" }, apis)
	fmt.Println(err.Error()[len(path):])
	// Output: :3: unknown key "providers.local.baseUrl" (did you mean "baseURL"?)
}
