package config

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/steer-tui/steer/agent/llm"
	"github.com/steer-tui/steer/assets"
)

// testAPIs are the APIs main registers, without their clients.
var testAPIs = llm.APIs{
	{Name: llm.OpenAIChat, CatalogueTypes: []string{"openai", "openai-compat", "openrouter", "vercel"}},
	{Name: llm.AnthropicMessages, CatalogueTypes: []string{"anthropic"}},
	{Name: llm.Scripted, Models: assets.OfflineModels},
}

// defaultCatalogue is the catalogue as testAPIs speak it.
var defaultCatalogue = catalogueOf(testAPIs)

// load is Load with the catalogue's loader given.
func load(path string, env func(string) string, cat func() *catalogue) (*Config, error) {
	return loadWith(path, env, testAPIs, cat, unbuiltKeys)
}

// Fake keys: every test checks that none of them leaks.
const (
	keyOpenAI     = "sk-openai-SECRET-111"
	keyOpenAI2    = "sk-openai-SECRET-222"
	keyAnthropic  = "sk-ant-SECRET-333"
	keyOpenRouter = "sk-or-SECRET-444"
	keyGroq       = "gsk-SECRET-555"
	keyLiteral    = "sk-literal-SECRET-666"
)

var secrets = []string{keyOpenAI, keyOpenAI2, keyAnthropic, keyOpenRouter, keyGroq, keyLiteral, "SECRET"}

// envOf is a fake environment.
func envOf(vars map[string]string) func(string) string {
	return func(name string) string { return vars[name] }
}

// writeConfig writes body to config.json in a fresh directory.
func writeConfig(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// countingCatalogue wraps the real catalogue and counts how often it is
// asked for, so tests can prove it was not loaded.
type countingCatalogue struct{ calls atomic.Int32 }

func (c *countingCatalogue) get() *catalogue {
	c.calls.Add(1)
	return defaultCatalogue()
}

// loadCounted loads with a counting catalogue.
func loadCounted(t *testing.T, path string, env map[string]string) (*Config, int32, error) {
	t.Helper()
	var cc countingCatalogue
	cfg, err := load(path, envOf(env), cc.get)
	return cfg, cc.calls.Load(), err
}

func assertNoSecrets(t *testing.T, what, s string) {
	t.Helper()
	for _, k := range secrets {
		if strings.Contains(s, k) {
			t.Errorf("%s leaks a key (%q): %s", what, k, s)
		}
	}
}

func mustLoad(t *testing.T, body string, env map[string]string) *Config {
	t.Helper()
	cfg, err := load(writeConfig(t, body), envOf(env), defaultCatalogue)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return cfg
}
