package runner

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/steer-tui/steer/agent"
)

// Provider is one configured provider: its models and how to stream them.
type Provider struct {
	Name   string
	Models []agent.Model
	Stream agent.StreamFn
	// Profiles are its auth profiles in the configured order, those whose
	// key is set; none: one keyless profile. The attempt loop rotates
	// through them.
	Profiles []Profile
	// Unusable, when set, says why the provider cannot be used and what
	// fixes it ("ANTHROPIC_API_KEY is not set"): its models are still listed,
	// but choosing one fails with an *UnusableError.
	Unusable string
	// Thinking is each model's own default thinking level, by model id
	// (config models[].thinking); models without one use Options.Thinking.
	Thinking map[string]agent.ThinkingLevel
}

// UnusableError is the error of choosing a model whose provider cannot be
// used (see Provider.Unusable). It is a configuration problem: exit status 2.
type UnusableError struct {
	Model  string
	Reason string
}

func (e *UnusableError) Error() string {
	return fmt.Sprintf("model %s cannot be used: %s", e.Model, e.Reason)
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

// thinkingChoice follows whether the session chose its thinking level:
// a chosen level outlasts a change of model, otherwise the session follows
// each model's default. It calls only set (the agent's SetThinking) and
// defaults (catalog.defaultThinking).
type thinkingChoice struct {
	set      func(agent.ThinkingLevel)
	defaults func(agent.Model) agent.ThinkingLevel

	mu     sync.Mutex
	chosen bool
}

// choose sets the level the session chose.
func (t *thinkingChoice) choose(l agent.ThinkingLevel) {
	t.mu.Lock()
	t.chosen = true
	t.mu.Unlock()
	t.set(l)
}

// reset goes back to m's default level, as if the session had chosen none
// (after a switch of profile or model, SPEC §5.3).
func (t *thinkingChoice) reset(m agent.Model) {
	t.mu.Lock()
	t.chosen = false
	t.mu.Unlock()
	t.set(t.defaults(m))
}

// follow gives a session that chose no level m's default, once m is the
// session's model.
func (t *thinkingChoice) follow(m agent.Model) {
	t.mu.Lock()
	chosen := t.chosen
	t.mu.Unlock()
	if !chosen {
		t.set(t.defaults(m))
	}
}
