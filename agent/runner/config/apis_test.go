package config

import (
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent/llm"
	"github.com/steer-tui/steer/assets"
)

// TestTheRegisterDecides: the APIs Load is given are the ones a provider
// may name, and the catalogue's providers of a type no API speaks cannot be
// configured by name alone.
func TestTheRegisterDecides(t *testing.T) {
	noAnthropic := llm.APIs{
		{Name: llm.OpenAIChat, CatalogueTypes: []string{"openai", "openai-compat", "openrouter", "vercel"}},
		{Name: llm.Scripted, Models: assets.OfflineModels},
	}
	env := map[string]string{"OPENAI_API_KEY": keyOpenAI}
	tests := []struct {
		name, file, want string
	}{
		{"an API not registered", `{"providers": {"claude": {"api": "anthropic-messages", "baseURL": "https://api.anthropic.com"}}}`,
			`providers.claude.api: unknown api "anthropic-messages" (want openai-chat or scripted)`},
		{"a catalogue provider of a type no API speaks", `{"providers": {"anthropic": {}}}`,
			`providers.anthropic: "api" is required (openai-chat or scripted)`},
		{"a registered API", `{"providers": {"openai": {}}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadWith(writeConfig(t, tt.file), envOf(env), noAnthropic, catalogueOf(noAnthropic), unbuiltKeys)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("err = %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
}
