package config

import (
	"github.com/steer-tui/steer/agent/llm"

	"slices"
	"testing"

	"charm.land/catwalk/pkg/catwalk"
	"charm.land/catwalk/pkg/embedded"
)

// TestOwnServerCannotBeInTheCatalogue holds what ownServer relies on: every
// catalogue provider's id is a known or unlisted one, and none has an
// endpoint on the user's network.
func TestOwnServerCannotBeInTheCatalogue(t *testing.T) {
	known := append(catwalk.KnownProviders(), unlistedIDs...)
	for _, p := range embedded.GetAll() {
		if !slices.Contains(known, p.ID) {
			t.Errorf("catalogue provider %q is neither among catwalk.KnownProviders nor unlistedIDs", p.ID)
		}
		if p.APIEndpoint != "" && selfHosted(p.APIEndpoint) {
			t.Errorf("catalogue provider %q is self-hosted at %s", p.ID, p.APIEndpoint)
		}
	}
}

func TestOwnServer(t *testing.T) {
	tests := []struct {
		name string
		p    Provider
		want bool
	}{
		{"local", Provider{API: llm.OpenAIChat, BaseURL: "http://127.0.0.1:8080/v1"}, true},
		{"lan", Provider{API: llm.AnthropicMessages, BaseURL: "http://192.168.1.9:4000"}, true},
		{"local", Provider{BaseURL: "http://127.0.0.1:8080/v1"}, false},                        // the catalogue may know its API
		{"corp", Provider{API: llm.OpenAIChat, BaseURL: "https://llm.corp.example/v1"}, false}, // a cloud endpoint
		{"ollama", Provider{API: llm.OpenAIChat, BaseURL: "http://127.0.0.1:11434/v1"}, false}, // a catalogue name, if catwalk has it
	}
	for _, tt := range tests {
		want := tt.want
		if tt.name == "ollama" {
			want = !slices.Contains(catwalk.KnownProviders(), catwalk.InferenceProvider("ollama"))
		}
		if got := ownServer(tt.name, tt.p); got != want {
			t.Errorf("ownServer(%s, %+v) = %v, want %v", tt.name, tt.p, got, want)
		}
	}
}
