package config

import (
	"slices"
	"strings"
	"sync"

	"charm.land/catwalk/pkg/catwalk"
	"charm.land/catwalk/pkg/embedded"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm"
)

// catalogue is charm.land/catwalk's embedded list of providers and models,
// turned into agent.Models. A provider's "kind" is catwalk's provider id
// ("openai", "anthropic", "openrouter", "groq", "deepseek", …).
type catalogue struct {
	providers []*catProvider // in catwalk's order
	byKind    map[string]*catProvider
}

type catProvider struct {
	kind    string
	api     string // the API it speaks (llm.APIs), "" when steer speaks none of its type
	baseURL string // "" when catwalk leaves it to the environment
	keyEnv  string // the conventional key variable, e.g. GROQ_API_KEY
	large   string // catwalk's default large model
	models  []agent.Model
	byID    map[string]int // ids and undated aliases → index in models
}

// catalogueOf returns the loader of the catalogue as apis speak it, which
// parses it once, on first use: it costs ~17 ms, which an offline start must
// not pay.
func catalogueOf(apis llm.APIs) func() *catalogue {
	return sync.OnceValue(func() *catalogue { return newCatalogue(embedded.GetAll(), apis) })
}

// knownBaseURLs fills in the endpoints catwalk leaves to the environment.
var knownBaseURLs = map[string]string{
	"openai":    "https://api.openai.com/v1",
	"anthropic": "https://api.anthropic.com",
}

func newCatalogue(all []catwalk.Provider, apis llm.APIs) *catalogue {
	c := &catalogue{byKind: map[string]*catProvider{}}
	for _, p := range all {
		kind := string(p.ID)
		if kind == "" || c.byKind[kind] != nil {
			continue
		}
		cp := &catProvider{kind: kind, api: apis.OfCatalogueType(string(p.Type)), large: p.DefaultLargeModelID, byID: map[string]int{}}
		switch {
		case knownBaseURLs[kind] != "":
			cp.baseURL = knownBaseURLs[kind]
		case strings.HasPrefix(p.APIEndpoint, "http://"), strings.HasPrefix(p.APIEndpoint, "https://"):
			cp.baseURL = strings.TrimSuffix(p.APIEndpoint, "/")
		}
		if v, ok := strings.CutPrefix(p.APIKey, "$"); ok {
			cp.keyEnv = v
		}
		for _, m := range p.Models {
			if _, dup := cp.byID[m.ID]; dup || m.ID == "" {
				continue
			}
			cp.byID[m.ID] = len(cp.models)
			cp.models = append(cp.models, modelOf(cp, m))
		}
		for i, m := range cp.models { // claude-sonnet-4-5 names claude-sonnet-4-5-20250929
			if alias, ok := undated(m.ID); ok {
				if _, taken := cp.byID[alias]; !taken {
					cp.byID[alias] = i
				}
			}
		}
		c.providers = append(c.providers, cp)
		c.byKind[kind] = cp
	}
	return c
}

func modelOf(cp *catProvider, m catwalk.Model) agent.Model {
	input := []string{"text"}
	if m.SupportsImages {
		input = append(input, "image")
	}
	return agent.Model{
		Provider:      cp.kind,
		ID:            m.ID,
		Name:          m.Name,
		API:           cp.api,
		BaseURL:       cp.baseURL,
		ContextWindow: int(m.ContextWindow),
		MaxOutput:     int(m.DefaultMaxTokens),
		Reasoning:     m.CanReason,
		Input:         input,
		// catwalk's "in cached" is the price of writing the cache and
		// "out cached" the price of reading it.
		Cost: agent.ModelCost{
			Input: m.CostPer1MIn, Output: m.CostPer1MOut,
			CacheRead: m.CostPer1MOutCached, CacheWrite: m.CostPer1MInCached,
		},
	}
}

// undated strips a -YYYYMMDD suffix.
func undated(id string) (string, bool) {
	i := len(id) - 9
	if i <= 0 || id[i] != '-' {
		return "", false
	}
	for _, c := range id[i+1:] {
		if c < '0' || c > '9' {
			return "", false
		}
	}
	return id[:i], true
}

// lookup finds a model of a provider kind (catwalk's provider id: "openai",
// "anthropic", "groq", …) by id or undated alias: "claude-sonnet-4-5" finds
// "claude-sonnet-4-5-20250929".
func (c *catalogue) lookup(kind, id string) (agent.Model, bool) {
	if c == nil {
		return agent.Model{}, false
	}
	cp := c.byKind[kind]
	if cp == nil {
		return agent.Model{}, false
	}
	i, ok := cp.byID[id]
	if !ok {
		return agent.Model{}, false
	}
	return cloneModel(cp.models[i]), true
}

// models are a provider kind's models in catalogue order, nil for an unknown
// kind.
func (c *catalogue) models(kind string) []agent.Model {
	if c == nil || c.byKind[kind] == nil {
		return nil
	}
	ms := slices.Clone(c.byKind[kind].models)
	for i := range ms {
		ms[i] = cloneModel(ms[i])
	}
	return ms
}

func cloneModel(m agent.Model) agent.Model {
	m.Input = slices.Clone(m.Input)
	return m
}
