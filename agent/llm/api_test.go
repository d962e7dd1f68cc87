package llm_test

import (
	"slices"
	"testing"

	"github.com/steer-tui/steer/agent/llm"
)

var register = llm.APIs{
	{Name: llm.OpenAIChat, CatalogueTypes: []string{"openai", "openai-compat"}},
	{Name: llm.AnthropicMessages, CatalogueTypes: []string{"anthropic"}},
	{Name: llm.Scripted},
}

func TestFind(t *testing.T) {
	for _, tt := range []struct {
		name string
		ok   bool
	}{{llm.OpenAIChat, true}, {llm.Scripted, true}, {"grpc", false}, {"", false}} {
		a, ok := register.Find(tt.name)
		if ok != tt.ok || ok && a.Name != tt.name {
			t.Errorf("Find(%q) = %q, %v; want found %v", tt.name, a.Name, ok, tt.ok)
		}
	}
}

func TestNames(t *testing.T) {
	want := []string{llm.OpenAIChat, llm.AnthropicMessages, llm.Scripted}
	if got := register.Names(); !slices.Equal(got, want) {
		t.Errorf("Names() = %v, want %v", got, want)
	}
}

func TestOfCatalogueType(t *testing.T) {
	for typ, want := range map[string]string{
		"openai": llm.OpenAIChat, "openai-compat": llm.OpenAIChat, "anthropic": llm.AnthropicMessages,
		"google": "", "": "",
	} {
		if got := register.OfCatalogueType(typ); got != want {
			t.Errorf("OfCatalogueType(%q) = %q, want %q", typ, got, want)
		}
	}
}
