package scripted

import (
	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/builtin"
)

// ProviderName and API name the scripted provider and its API kind in model
// references and config (`"api": "scripted"`).
const (
	ProviderName = builtin.ProviderName
	API          = builtin.API
)

// Models lists the scripted models; see builtin.Models.
func Models() []agent.Model { return builtin.Models() }

// DefaultModel is scripted/echo, the model steer uses when nothing is
// configured.
func DefaultModel() agent.Model { return builtin.DefaultModel() }
