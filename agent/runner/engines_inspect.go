package runner

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/steer-tui/steer/contextguard/engines"
)

// The kinds of context engine an EngineView shows.
const (
	EngineBuiltin  = "builtin"
	EngineExternal = "external"
)

// EngineRef is one configured external context engine (config
// contextEngines.NAME).
type EngineRef struct {
	Name    string
	Command []string
	// Timeout bounds each call; 0 is engines.DefaultTimeout.
	Timeout time.Duration
}

// EngineView is one context engine as the inspectors show it (`steer
// inspect engines --json`, rpc inspect).
type EngineView struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // EngineBuiltin or EngineExternal
	// Command is the external engine's program and arguments; empty for
	// the built-in one.
	Command []string `json:"command"`
	// TimeoutSeconds bounds each call of an external engine; 0 for the
	// built-in one, which is not guarded.
	TimeoutSeconds float64 `json:"timeoutSeconds"`
	// Selected: agent.contextEngine names it.
	Selected    bool `json:"selected"`
	Quarantined bool `json:"quarantined"`
}

// EnginesView is what `steer inspect engines --json` prints. Engines lists
// the built-in engine then the configured ones by name; Quarantines every
// stored quarantine by engine name, an engine no longer configured
// included (so that it can be cleared). Both arrays are never null.
type EnginesView struct {
	// Active is the engine that answers: the selected one, or the built-in
	// one while the selected one is quarantined.
	Active      string               `json:"active"`
	Selected    string               `json:"selected"`
	Engines     []EngineView         `json:"engines"`
	Quarantines []engines.Quarantine `json:"quarantines"`
}

// ViewEngines is the view of the configured engines, selected by name ("",
// the built-in one), given the stored quarantines. It starts no engine.
func ViewEngines(selected string, configured []EngineRef, quarantines []engines.Quarantine) EnginesView {
	if selected == "" {
		selected = engines.LegacyName
	}
	quarantined := map[string]bool{}
	for _, q := range quarantines {
		quarantined[q.Engine] = true
	}
	v := EnginesView{Active: selected, Selected: selected,
		Engines:     []EngineView{{Name: engines.LegacyName, Kind: EngineBuiltin, Command: []string{}, Selected: selected == engines.LegacyName}},
		Quarantines: slices.Clone(quarantines)}
	if v.Quarantines == nil {
		v.Quarantines = []engines.Quarantine{}
	}
	slices.SortFunc(v.Quarantines, func(a, b engines.Quarantine) int { return strings.Compare(a.Engine, b.Engine) })
	refs := slices.Clone(configured)
	slices.SortFunc(refs, func(a, b EngineRef) int { return strings.Compare(a.Name, b.Name) })
	for _, r := range refs {
		timeout := r.Timeout
		if timeout <= 0 {
			timeout = engines.DefaultTimeout
		}
		v.Engines = append(v.Engines, EngineView{Name: r.Name, Kind: EngineExternal, Command: append([]string{}, r.Command...),
			TimeoutSeconds: timeout.Seconds(), Selected: r.Name == selected, Quarantined: quarantined[r.Name]})
	}
	if selected != engines.LegacyName && quarantined[selected] {
		v.Active = engines.LegacyName
	}
	return v
}

// InspectEngines reads the quarantines from store (read-only is enough)
// and views the configured engines; it never starts an engine.
func InspectEngines(ctx context.Context, store engines.QuarantineStore, selected string, configured []EngineRef) (EnginesView, error) {
	qs, err := store.List(ctx)
	if err != nil {
		return EnginesView{}, fmt.Errorf("reading the context-engine quarantines: %w", err)
	}
	return ViewEngines(selected, configured, qs), nil
}

// NotQuarantinedError is a clear of an engine that has no quarantine; rpc
// and `steer inspect engines --clear` say it in these words.
type NotQuarantinedError struct{ Engine string }

func (e *NotQuarantinedError) Error() string {
	return fmt.Sprintf("context engine %q is not quarantined", e.Engine)
}
