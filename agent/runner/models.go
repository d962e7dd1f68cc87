package runner

import (
	"fmt"
	"sort"
	"strings"

	"github.com/steer-tui/steer/agent"
)

// Provider is one configured provider: its models and how to stream them.
type Provider struct {
	Name   string
	Models []agent.Model
	Stream agent.StreamFn
}

// ResolveModel finds the model a reference names. "provider/id" must match
// exactly; a bare id is looked up across providers and must be unique; an
// empty reference means the first model of the first provider. (seed)
func ResolveModel(providers []Provider, ref string) (agent.Model, error) {
	if ref == "" {
		for _, p := range providers {
			if len(p.Models) > 0 {
				return p.Models[0], nil
			}
		}
		return agent.Model{}, fmt.Errorf("no model is configured")
	}
	if provider, id, ok := strings.Cut(ref, "/"); ok {
		for _, p := range providers {
			if p.Name != provider {
				continue
			}
			for _, m := range p.Models {
				if m.ID == id {
					return m, nil
				}
			}
			return agent.Model{}, fmt.Errorf("unknown model %q: provider %s has %s", ref, provider, modelList(p.Models))
		}
		return agent.Model{}, fmt.Errorf("unknown provider %q in model %q; known: %s", provider, ref, providerList(providers))
	}
	var found []agent.Model
	for _, p := range providers {
		for _, m := range p.Models {
			if m.ID == ref {
				found = append(found, m)
			}
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return agent.Model{}, fmt.Errorf("unknown model %q; known: %s", ref, allModels(providers))
	default:
		return agent.Model{}, fmt.Errorf("model %q is offered by several providers; write provider/%s", ref, ref)
	}
}

func modelList(models []agent.Model) string {
	ids := make([]string, len(models))
	for i, m := range models {
		ids[i] = m.ID
	}
	return strings.Join(ids, ", ")
}

func providerList(providers []Provider) string {
	names := make([]string, len(providers))
	for i, p := range providers {
		names[i] = p.Name
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func allModels(providers []Provider) string {
	var refs []string
	for _, p := range providers {
		for _, m := range p.Models {
			refs = append(refs, m.Ref())
		}
	}
	return strings.Join(refs, ", ")
}
