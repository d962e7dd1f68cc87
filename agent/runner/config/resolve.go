package config

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm"
	"github.com/steer-tui/steer/assets"
)

// ResolveRef turns a model reference into a provider name and a model id:
//
//   - an alias is replaced by its target;
//   - "provider/model" names a model of that provider: one it lists, or one
//     the catalogue knows for its kind;
//   - a bare id (which may itself contain a slash, like OpenRouter's
//     "anthropic/claude-sonnet-4.5") must belong to exactly one provider,
//     looking at the configured models first, then at the catalogue models
//     of the configured providers.
//
// The built-in "scripted" provider always resolves unless the config
// declares its own. Errors list what is known.
func (c *Config) ResolveRef(ref string) (provider, modelID string, err error) {
	m, err := c.ResolveModel(ref)
	if err != nil {
		return "", "", err
	}
	return m.Provider, m.ID, nil
}

// ResolveModel is ResolveRef returning the whole model: metadata, API and
// base URL included.
func (c *Config) ResolveModel(ref string) (agent.Model, error) {
	return c.resolve(ref, true)
}

func (c *Config) resolve(ref string, aliases bool) (agent.Model, error) {
	if ref == "" {
		return agent.Model{}, errors.New("empty model reference")
	}
	if target, ok := c.Aliases[ref]; ok && aliases {
		ref = target
	}
	ps := c.AllProviders()
	name, id, qualified := strings.Cut(ref, "/")
	if qualified {
		if i := slices.IndexFunc(ps, func(p Provider) bool { return p.Name == name }); i >= 0 {
			if m, ok := c.ModelOf(ps[i], id); ok {
				return m, nil
			}
			if hits := c.find(ps, ref); len(hits) == 1 {
				return hits[0], nil // an id with a slash in it
			}
			return agent.Model{}, fmt.Errorf("unknown model %q: provider %s has %s", ref, name, listOf(ids(ps[i].Models)))
		}
	}
	hits := c.find(ps, ref)
	switch {
	case len(hits) == 1:
		return hits[0], nil
	case len(hits) > 1:
		refs := make([]string, len(hits))
		for i, m := range hits {
			refs[i] = m.Ref()
		}
		return agent.Model{}, fmt.Errorf("model %q is offered by several providers (%s); write provider/model", ref, listOf(refs))
	case qualified:
		names := make([]string, len(ps))
		for i, p := range ps {
			names[i] = p.Name
		}
		return agent.Model{}, fmt.Errorf("unknown provider %q in %q (known: %s)", name, ref, listOf(names))
	}
	var refs []string
	for _, p := range ps {
		for _, m := range p.Models {
			refs = append(refs, m.Ref())
		}
	}
	return agent.Model{}, fmt.Errorf("unknown model %q (known: %s)", ref, listOf(refs))
}

// ModelOf is model id of provider p as the configuration knows it: one p
// lists, else the catalogue's for p's kind; for a provider whose server
// lists its models (Provider.Discover), any other id too, with nothing
// known of it but its provider. The model carries p's name, API and base
// URL.
func (c *Config) ModelOf(p Provider, id string) (agent.Model, bool) {
	for _, m := range p.Models {
		if m.ID == id {
			return cloneModel(m), true
		}
	}
	if p.Kind != "" {
		if m, ok := c.catalogue().lookup(p.Kind, id); ok {
			return adopt(p, m, id), true
		}
	}
	if p.Discover && id != "" {
		return adopt(p, agent.Model{}, id), true
	}
	return agent.Model{}, false
}

// find returns every provider's model with that id: the configured models,
// or when none has it, the catalogue's.
func (c *Config) find(ps []Provider, id string) []agent.Model {
	var hits []agent.Model
	for _, p := range ps {
		for _, m := range p.Models {
			if m.ID == id {
				hits = append(hits, cloneModel(m))
			}
		}
	}
	if len(hits) > 0 {
		return hits
	}
	for _, p := range ps {
		if p.Kind == "" {
			continue
		}
		if m, ok := c.catalogue().lookup(p.Kind, id); ok {
			hits = append(hits, adopt(p, m, id))
		}
	}
	return hits
}

// AllProviders is Providers plus the built-in scripted provider unless the
// config declares one of that name.
func (c *Config) AllProviders() []Provider {
	for _, p := range c.Providers {
		if p.Name == assets.OfflineProvider {
			return c.Providers
		}
	}
	return append(slices.Clip(c.Providers), Provider{
		Name:     assets.OfflineProvider,
		API:      llm.Scripted,
		Profiles: []Profile{{ID: assets.OfflineProvider + ":default"}},
		Models:   assets.OfflineModels(),
	})
}

// catalogue is the one the Config was loaded with; nil for a Config built
// by hand. Only providers with a Kind ask for it, and loading them loaded it.
func (c *Config) catalogue() *catalogue {
	if c.cat == nil {
		return nil
	}
	return c.cat()
}

func ids(models []agent.Model) []string {
	out := make([]string, len(models))
	for i, m := range models {
		out[i] = m.ID
	}
	return out
}
