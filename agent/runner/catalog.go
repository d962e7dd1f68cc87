package runner

import (
	"errors"

	"github.com/steer-tui/steer/agent"
)

// catalog is the configuration of models and auth profiles the attempts
// read: which provider serves a model, whether it can be used, the fallback
// chain after it, its default thinking level, and which profiles exist. It
// holds configuration only and calls nothing but Options.Resolve.
type catalog struct {
	providers []Provider
	resolve   func(ref string) (agent.Model, error)
	fallbacks []string
	thinking  agent.ThinkingLevel // the agent's default (Options.Thinking)
}

func newCatalog(opts Options) *catalog {
	return &catalog{providers: opts.Providers, resolve: opts.Resolve, fallbacks: opts.Fallbacks, thinking: opts.Thinking}
}

// providerOf is the provider that serves m; one without a Stream when none
// is configured.
func (c *catalog) providerOf(m agent.Model) Provider {
	for _, p := range c.providers {
		if p.Name == m.Provider {
			return p
		}
	}
	return Provider{Name: m.Provider}
}

// modelChain is m, then the configured fallbacks that resolve to another
// usable model, each once.
func (c *catalog) modelChain(m agent.Model) []agent.Model {
	chain := []agent.Model{m}
	for _, ref := range c.fallbacks {
		fm, err := c.resolve(ref)
		if err != nil || c.unusable(fm) != nil || c.providerOf(fm).Stream == nil {
			continue
		}
		dup := false
		for _, in := range chain {
			dup = dup || in.Ref() == fm.Ref()
		}
		if !dup {
			chain = append(chain, fm)
		}
	}
	return chain
}

// defaultThinking is the thinking level a session on m starts with unless
// it chose one (seed 000 §4.1 ③, resolveInitialThinkLevel: the explicit
// level first, else the default for this model): m's own default, else the
// agent's (Options.Thinking). It is also the "initial value" a switch of
// profile or model goes back to (SPEC §5.3).
func (c *catalog) defaultThinking(m agent.Model) agent.ThinkingLevel {
	for _, p := range c.providers {
		if l, ok := p.Thinking[m.ID]; ok && p.Name == m.Provider {
			return l
		}
	}
	return c.thinking
}

// unusable returns the *UnusableError of choosing m, or nil when its
// provider can be used.
func (c *catalog) unusable(m agent.Model) error {
	if ue := unusableIn(c.providers, m); ue != nil {
		return ue
	}
	return nil
}

// problem says why m cannot be chosen, or "" when it can.
func (c *catalog) problem(m agent.Model) string {
	var ue *UnusableError
	if errors.As(c.unusable(m), &ue) {
		return ue.Reason
	}
	return ""
}

// hasProfile says whether a provider configures auth profile id.
func (c *catalog) hasProfile(id string) bool {
	for _, p := range c.providers {
		for _, pr := range p.profiles() {
			if pr.ID == id {
				return true
			}
		}
	}
	return false
}

// unknownProfile is the error for an id no provider configures, listing the
// ones that are.
func (c *catalog) unknownProfile(id string) error {
	var known []string
	for _, p := range c.providers {
		for _, pr := range p.profiles() {
			known = append(known, pr.ID)
		}
	}
	return &UnknownProfileError{ID: id, Known: known}
}

// checkProfile is nil when id is "" (none) or configured, else the
// *UnknownProfileError.
func (c *catalog) checkProfile(id string) error {
	if id != "" && !c.hasProfile(id) {
		return c.unknownProfile(id)
	}
	return nil
}
