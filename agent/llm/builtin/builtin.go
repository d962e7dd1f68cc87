// Package builtin names the offline provider that is always available, and its
// models, so that configuration can list them without linking a provider.
package builtin

import "github.com/steer-tui/steer/agent"

// ProviderName and API name the scripted provider and its API kind in model
// references and config (`"api": "scripted"`).
const (
	ProviderName = "scripted"
	API          = "scripted"
)

// Models lists the scripted models:
//
//   - scripted/echo, the default: a 200k-token window, like a large cloud
//     model; it reasons (thinks aloud) when a thinking level is set.
//   - scripted/tiny: an 8k-token window, to rehearse context overflow,
//     truncation and compaction after a few tool results.
//
// Both cost nothing.
func Models() []agent.Model {
	return []agent.Model{
		{
			Provider: ProviderName, ID: "echo", Name: "Scripted echo (offline)", API: API,
			ContextWindow: 200_000, MaxOutput: 16_384, Reasoning: true, Input: []string{"text"},
		},
		{
			Provider: ProviderName, ID: "tiny", Name: "Scripted tiny (8k context, offline)", API: API,
			ContextWindow: 8_192, MaxOutput: 1_024, Input: []string{"text"},
		},
	}
}

// DefaultModel is scripted/echo, the model steer uses when nothing is
// configured.
func DefaultModel() agent.Model { return Models()[0] }
