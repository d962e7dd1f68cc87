package runner

import (
	"fmt"

	"github.com/steer-tui/steer/agent"
)

// StartingModel is the model a process starts on. ref is the model asked
// for; chosen says the user named it (--model), so it is used or refused,
// never replaced. The configuration's default, when its provider cannot be
// used (its key is not set), gives way to the first usable fallback, and
// note says so; only when every one of them is unusable is the start
// refused, with the default's *UnusableError.
func StartingModel(ref string, chosen bool, fallbacks []string, providers []Provider, resolve func(string) (agent.Model, error)) (m agent.Model, note string, err error) {
	m, err = resolve(ref)
	if err != nil {
		return agent.Model{}, "", err
	}
	problem := unusableIn(providers, m)
	if problem == nil {
		return m, "", nil
	}
	if chosen {
		return agent.Model{}, "", problem
	}
	for _, fb := range fallbacks {
		fm, err := resolve(fb)
		if err != nil || unusableIn(providers, fm) != nil {
			continue
		}
		return fm, fmt.Sprintf("the default model %s cannot be used (%s): starting on the fallback %s",
			m.Ref(), problem.Reason, fm.Ref()), nil
	}
	return agent.Model{}, "", problem
}

// unusableIn is the *UnusableError of choosing m among providers, nil when
// its provider can be used.
func unusableIn(providers []Provider, m agent.Model) *UnusableError {
	for _, p := range providers {
		if p.Name == m.Provider && p.Unusable != "" {
			return &UnusableError{Model: m.Ref(), Reason: p.Unusable}
		}
	}
	return nil
}
