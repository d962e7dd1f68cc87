package assets

// The offline provider that is always available, and its models, live here
// so that configuration can list them without linking a provider package.

import "github.com/steer-tui/steer/agent"

// OfflineProvider and OfflineAPI name the scripted provider and its API kind in model
// references and config (`"api": "scripted"`).
const (
	OfflineProvider = "scripted"
	OfflineAPI      = "scripted"
)

// OfflineModels lists the scripted models:
//
//   - scripted/echo, the default: a 200k-token window, like a large cloud
//     model; it reasons (thinks aloud) when a thinking level is set.
//   - scripted/tiny: an 8k-token window, to rehearse context overflow,
//     truncation and compaction after a few tool results.
//
// Both cost nothing.
func OfflineModels() []agent.Model {
	return []agent.Model{
		{
			Provider: OfflineProvider, ID: "echo", Name: "Scripted echo (offline)", API: OfflineAPI,
			ContextWindow: 200_000, MaxOutput: 16_384, Reasoning: true, Input: []string{"text"},
		},
		{
			Provider: OfflineProvider, ID: "tiny", Name: "Scripted tiny (8k context, offline)", API: OfflineAPI,
			ContextWindow: 8_192, MaxOutput: 1_024, Input: []string{"text"},
		},
	}
}

// DefaultOfflineModel is scripted/echo, the model steer uses when nothing is
// configured.
func DefaultOfflineModel() agent.Model { return OfflineModels()[0] }
