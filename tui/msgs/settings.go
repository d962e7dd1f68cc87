package msgs

import "github.com/steer-tui/steer/agent"

// OpenModelsMsg asks to pick a model from the configured ones.
type OpenModelsMsg struct{}

// SetModelMsg asks to switch to the model Ref (provider/id).
type SetModelMsg struct{ Ref string }

// ModelChangedMsg reports the model now in use.
type ModelChangedMsg struct{ Model agent.Model }

// OpenThinkingMsg asks to pick a thinking level.
type OpenThinkingMsg struct{}

// SetThinkingMsg asks to set the thinking level; an empty Level means the
// next one in order.
type SetThinkingMsg struct{ Level agent.ThinkingLevel }

// ThinkingChangedMsg reports the thinking level now in use.
type ThinkingChangedMsg struct{ Level agent.ThinkingLevel }
