package scripted

import (
	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/assets"
)

// ProviderName and API name the scripted provider and its API kind in model
// references and config (`"api": "scripted"`).
const (
	ProviderName = assets.OfflineProvider
	API          = assets.OfflineAPI
)

// Models lists the scripted models; see assets.OfflineModels.
func Models() []agent.Model { return assets.OfflineModels() }

// DefaultModel is scripted/echo, the model steer uses when nothing is
// configured.
func DefaultModel() agent.Model { return assets.DefaultOfflineModel() }
