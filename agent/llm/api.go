// Package llm is the register of the provider APIs steer speaks: one row per
// API, saying its name, which catalogue providers speak it, the models it
// knows without a catalogue and how to build its client. Configuration
// reads the rows to check a provider's "api" and to know which catalogue
// providers it can talk to (agent/runner/config); main reads them to build
// each configured provider's stream. The packages below implement the APIs
// (openai, anthropic, scripted); only main links them, so main writes the
// table, in one place.
package llm

import (
	"slices"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/assets"
)

// The names of the APIs steer speaks: a provider's "api" in the
// configuration and agent.Model.API.
const (
	OpenAIChat        = "openai-chat"        // Chat Completions, any compatible server
	AnthropicMessages = "anthropic-messages" // Anthropic's Messages
	Scripted          = assets.OfflineAPI    // the offline scripted provider
)

// Endpoint is what a configured provider gives the client of its API.
type Endpoint struct {
	// BaseURL is the API root; "" for an API that needs none.
	BaseURL string
	// APIKey is the first usable profile's key, "" when none is; the
	// runner's attempt loop sends each profile's own key with its requests.
	APIKey string
	// IdleTimeout and FirstProgressTimeout are the watchdog's windows; 0
	// means the client's default.
	IdleTimeout, FirstProgressTimeout time.Duration
	// Headers are sent with every request.
	Headers map[string]string
}

// API is one row of the register.
type API struct {
	// Name is the API's name (OpenAIChat, …).
	Name string
	// CatalogueTypes are the types of the model catalogue's providers
	// (charm.land/catwalk's provider type: "openai", "openai-compat", …)
	// that speak this API; a catalogue provider of no row's type is one
	// steer cannot talk to.
	CatalogueTypes []string
	// Models, when set, are the API's own models: its providers need no
	// catalogue, base URL or key (the offline scripted API).
	Models func() []agent.Model
	// New builds the stream of one configured provider. It is called once
	// per provider at start-up, from main's goroutine.
	New func(Endpoint) (agent.StreamFn, error)
}

// APIs is the register, in the order error messages list the names.
type APIs []API

// Find returns the row named name.
func (t APIs) Find(name string) (API, bool) {
	for _, a := range t {
		if a.Name == name {
			return a, true
		}
	}
	return API{}, false
}

// Names are the rows' names, in order.
func (t APIs) Names() []string {
	out := make([]string, len(t))
	for i, a := range t {
		out[i] = a.Name
	}
	return out
}

// OfCatalogueType is the name of the API that catalogue providers of type
// typ speak, "" when no row does.
func (t APIs) OfCatalogueType(typ string) string {
	for _, a := range t {
		if slices.Contains(a.CatalogueTypes, typ) {
			return a.Name
		}
	}
	return ""
}
