package config

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent/runner/steerbin"
)

// TestLoadREADMEExampleWithoutKeys: an unset key makes its provider
// unusable, not the file wrong; the references still resolve, so that the
// caller can say which variable to set.
func TestLoadREADMEExampleWithoutKeys(t *testing.T) {
	cfg := mustLoad(t, steerbin.READMEConfig(t), map[string]string{})
	if cfg.Model != "sonnet" {
		t.Errorf("Model = %q", cfg.Model)
	}
	want := map[string]string{
		"anthropic":  "ANTHROPIC_API_KEY is not set",
		"openai":     "OPENAI_API_KEY is not set",
		"openrouter": "OPENROUTER_API_KEY is not set",
		"ollama":     "",
		"llamacpp":   "",
	}
	got := map[string]string{}
	for _, p := range cfg.Providers {
		got[p.Name] = p.Unusable()
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Unusable = %v, want %v", got, want)
	}
	m, err := cfg.ResolveModel(cfg.Model)
	if err != nil || m.Ref() != "anthropic/claude-sonnet-4-5" {
		t.Errorf("ResolveModel(sonnet) = %v, %v", m.Ref(), err)
	}
	if _, _, err := cfg.ResolveRef("scripted/echo"); err != nil {
		t.Errorf("scripted/echo: %v", err)
	}

	// With the key set, the same file has nothing unusable.
	cfg = mustLoad(t, steerbin.READMEConfig(t), map[string]string{"ANTHROPIC_API_KEY": keyAnthropic, "OPENAI_API_KEY": keyOpenAI,
		"OPENROUTER_API_KEY": keyOpenRouter})
	for _, p := range cfg.Providers {
		if why := p.Unusable(); why != "" {
			t.Errorf("%s unusable with its key set: %s", p.Name, why)
		}
	}
}

func TestProviderUnusable(t *testing.T) {
	tests := []struct {
		name, body string
		env        map[string]string
		want       string // of the provider "p"; FIRST for the profiles' own reasons
		usable     []string
	}{
		{"conventional variable unset", `{"providers": {"p": {"api": "openai-chat", "baseURL": "https://api.openai.com/v1"}}}`,
			nil, "OPENAI_API_KEY is not set", nil},
		{"one of two set", `{"providers": {"p": {"api": "openai-chat", "baseURL": "https://x.example/v1",
			"profiles": [{"id": "a", "apiKeyEnv": "KEY_A"}, {"id": "b", "apiKeyEnv": "KEY_B"}]}}}`,
			map[string]string{"KEY_B": keyOpenAI2}, "", []string{"b"}},
		{"two unset", `{"providers": {"p": {"api": "openai-chat", "baseURL": "https://x.example/v1",
			"profiles": [{"id": "a", "apiKeyEnv": "KEY_A"}, {"id": "b", "apiKeyEnv": "KEY_B"}, {"id": "c", "apiKeyEnv": "KEY_A"}]}}}`,
			nil, "KEY_A and KEY_B are not set", nil},
		{"three unset", `{"providers": {"p": {"api": "openai-chat", "baseURL": "https://x.example/v1",
			"profiles": [{"id": "a", "apiKeyEnv": "KEY_A"}, {"id": "b", "apiKeyEnv": "KEY_B"}, {"id": "c", "apiKeyEnv": "KEY_C"}]}}}`,
			nil, "KEY_A, KEY_B and KEY_C are not set", nil},
		// A mixed-case "variable" may be a key pasted in the wrong place:
		// never named.
		{"mixed-case variable unset", `{"providers": {"p": {"api": "openai-chat", "baseURL": "https://x.example/v1",
			"profiles": [{"id": "p:main", "apiKeyEnv": "skSECRETabc"}]}}}`,
			nil, `the variable named by "apiKeyEnv" of profile p:main is not set`, nil},
		{"literal key", `{"providers": {"p": {"api": "openai-chat", "baseURL": "https://x.example/v1",
			"profiles": [{"apiKey": "` + keyLiteral + `"}]}}}`, nil, "", []string{"p:default"}},
		{"local server", `{"providers": {"p": {"api": "openai-chat", "baseURL": "http://127.0.0.1:8080/v1", "models": [{"id": "m"}]}}}`,
			nil, "", []string{"p:default"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := mustLoad(t, tt.body, tt.env)
			p, ok := cfg.Provider("p")
			if !ok {
				t.Fatal("no provider p")
			}
			if got := p.Unusable(); got != tt.want {
				t.Errorf("Unusable() = %q, want %q", got, tt.want)
			}
			assertNoSecrets(t, "Unusable()", p.Unusable())
			var usable []string
			for _, pr := range p.Usable() {
				usable = append(usable, pr.ID)
			}
			if !reflect.DeepEqual(usable, tt.usable) {
				t.Errorf("Usable() = %v, want %v", usable, tt.usable)
			}
		})
	}
}

// TestDefaultModelPrefersAUsableProvider: without "model", the default is
// the first provider that can be used; when none can, the first provider's,
// so that starting names the missing key.
func TestDefaultModelPrefersAUsableProvider(t *testing.T) {
	body := `{"providers": {
  "anthropic": {},
  "ollama": {"api": "openai-chat", "baseURL": "http://127.0.0.1:11434/v1", "models": [{"id": "qwen3:8b"}]}}}`
	if cfg := mustLoad(t, body, map[string]string{}); cfg.Model != "ollama/qwen3:8b" {
		t.Errorf("Model = %q, want ollama/qwen3:8b", cfg.Model)
	}
	cfg := mustLoad(t, `{"providers": {"anthropic": {}}}`, map[string]string{})
	if p, _ := cfg.Provider("anthropic"); !strings.HasPrefix(cfg.Model, "anthropic/") || p.Unusable() != "ANTHROPIC_API_KEY is not set" {
		t.Errorf("Model = %q, anthropic unusable: %q", cfg.Model, p.Unusable())
	}
}

// TestUnbuiltKeys: a key whose feature steer does not have is refused on
// its line, never accepted and ignored; null and empty values set nothing.
func TestUnbuiltKeys(t *testing.T) {
	tests := []struct{ body, want string }{
		{"{\n  \"fallbacks\": [\"scripted/tiny\"]\n}", ``},
		{"{\"agent\": {\n  \"timeoutSeconds\": 60}}", ``},
		{`{"agent": {"maxConcurrent": 4}}`, ``},
		{`{"agent": {"contextEngine": "legacy"}}`, ``},
		{`{"contextEngines": {"notes": {"command": ["x"]}}}`, ``},
		{`{"agent": {"contextEngine": "notes"}, "contextEngines": {"notes": {"command": ["x"]}}}`, ``},
		{`{"agent": {"contextEngine": "nope"}}`, `FILE:1: agent.contextEngine: unknown context engine "nope" (known: legacy)`},
		{`{"auth": {"cooldowns": {"billingMaxHours": 24}}}`, ``},
		{`{"tools": {"approval": "ask"}}`, ``},
		{`{"tools": {"approval": "deny"}}`, `FILE:1: tools.approval: unknown approval mode "deny" (want ask, auto, never, plan; "deny" is now "never")`},
		{`{"tools": {"approval": "auto"}, "fallbacks": [], "auth": {}, "agent": {"timeoutSeconds": null}}`, ``},
		{specExample, ``},
	}
	for _, tt := range tests {
		path := writeConfig(t, tt.body)
		_, err := Load(path, envOf(specEnv), testAPIs)
		want := strings.ReplaceAll(tt.want, "FILE", path)
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", tt.body, err)
		case want != "" && (err == nil || err.Error() != want):
			t.Errorf("%s:\n got: %v\nwant: %s", tt.body, err, want)
		}
	}
}

func TestSettingsMaxInputBytesAndTheme(t *testing.T) {
	cfg := mustLoad(t, `{"agent": {"maxInputBytes": 1024}, "ui": {"theme": "light"}}`, nil)
	if cfg.Agent.MaxInputBytes != 1024 || cfg.UI.Theme != ThemeLight {
		t.Errorf("MaxInputBytes, Theme = %d, %q", cfg.Agent.MaxInputBytes, cfg.UI.Theme)
	}
	cfg = mustLoad(t, `{}`, nil)
	if cfg.Agent.MaxInputBytes != 0 || cfg.UI.Theme != ThemeAuto || cfg.Tools.Approval != "" {
		t.Errorf("defaults: MaxInputBytes, Theme, Approval = %d, %q, %q", cfg.Agent.MaxInputBytes, cfg.UI.Theme, cfg.Tools.Approval)
	}
	for _, in := range []string{"dark", "light", "auto"} {
		if got, err := ParseTheme(in); got != in || err != nil {
			t.Errorf("ParseTheme(%q) = %q, %v", in, got, err)
		}
	}
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", home)
	themes := filepath.Join(home, "steer", "themes")
	if err := os.MkdirAll(themes, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(themes, "sea.json"), []byte(`{}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := ParseTheme("sea"); got != "sea" || err != nil {
		t.Errorf("ParseTheme(sea), a theme file = %q, %v", got, err)
	}
	for _, in := range []string{"Dark", "../sea", ""} {
		want := fmt.Sprintf("unknown theme %q (want dark, light, auto or the name of a file in %s)", in, themes)
		if _, err := ParseTheme(in); err == nil || err.Error() != want {
			t.Errorf("ParseTheme(%q) = %v, want %s", in, err, want)
		}
	}
	cfg = mustLoad(t, `{"ui": {"theme": "sea", "plain": true}}`, nil)
	if cfg.UI.Theme != "sea" || !cfg.UI.Plain {
		t.Errorf("ui = %+v", cfg.UI)
	}
}

// TestSecretEnvNames lists every variable a profile reads, set or not, and
// the conventional ones, for the tools to hide.
func TestSecretEnvNames(t *testing.T) {
	cfg := mustLoad(t, `{"providers": {
  "openai": {"profiles": [{"apiKeyEnv": "OPENAI_API_KEY"}, {"id": "b", "apiKeyEnv": "OPENAI_API_KEY_2"}]},
  "corp": {"api": "openai-chat", "baseURL": "https://llm.corp.example/v1", "profiles": [{"apiKeyEnv": "corpKey"}, {"id": "lit", "apiKey": "x"}]},
  "groq": {},
  "ollama": {"api": "openai-chat", "baseURL": "http://127.0.0.1:11434/v1", "models": [{"id": "m"}]}}}`,
		map[string]string{"OPENAI_API_KEY": keyOpenAI})
	want := []string{"ANTHROPIC_API_KEY", "GROQ_API_KEY", "OPENAI_API_KEY", "OPENAI_API_KEY_2", "OPENROUTER_API_KEY", "corpKey"}
	if got := cfg.SecretEnvNames(); !reflect.DeepEqual(got, want) {
		t.Errorf("SecretEnvNames() = %v, want %v", got, want)
	}
	var empty Config
	if got := empty.SecretEnvNames(); !reflect.DeepEqual(got, []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENROUTER_API_KEY"}) {
		t.Errorf("empty Config: %v", got)
	}
}

// TestUnbuiltKeyMechanism: a key listed as unbuilt is refused on its line
// when set, accepted when unset, null or its one working value.
func TestUnbuiltKeyMechanism(t *testing.T) {
	unbuilt := []unbuiltKey{{"agent.maxConcurrent", "lanes are off", ""}, {"ui.theme", "themes are off", ThemeAuto}}
	tests := []struct{ body, want string }{
		{"{\"agent\": {\n  \"maxConcurrent\": 2}}", `FILE:2: agent.maxConcurrent: not supported yet: lanes are off`},
		{`{"agent": {"maxConcurrent": null}}`, ``},
		{`{"ui": {"theme": "auto"}}`, ``},
		{`{"ui": {"theme": "dark"}}`, `FILE:1: ui.theme: "dark" is not supported yet: themes are off`},
	}
	for _, tt := range tests {
		path := writeConfig(t, tt.body)
		_, err := loadWith(path, envOf(specEnv), testAPIs, defaultCatalogue, unbuilt)
		want := strings.ReplaceAll(tt.want, "FILE", path)
		if (want == "") != (err == nil) || (err != nil && err.Error() != want) {
			t.Errorf("%s:\n got: %v\nwant: %s", tt.body, err, want)
		}
	}
}
