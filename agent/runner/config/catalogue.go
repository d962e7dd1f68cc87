package config

import (
	"slices"
	"strings"
	"sync"

	"charm.land/catwalk/pkg/catwalk"
	"charm.land/catwalk/pkg/embedded"

	"github.com/steer-tui/steer/agent"
)

// The API kinds a provider speaks (the "api" key).
const (
	APIOpenAIChat        = "openai-chat"
	APIAnthropicMessages = "anthropic-messages"
	APIScripted          = "scripted"
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
	api     string // steer's API kind, "" when steer does not speak it
	baseURL string // "" when catwalk leaves it to the environment
	keyEnv  string // the conventional key variable, e.g. GROQ_API_KEY
	large   string // catwalk's default large model
	models  []agent.Model
	byID    map[string]int // ids and undated aliases → index in models
}

// defaultCatalogue parses the catalogue once, on first use: it costs ~17 ms,
// which an offline start must not pay.
var defaultCatalogue = sync.OnceValue(func() *catalogue { return newCatalogue(embedded.GetAll()) })

// knownBaseURLs fills in the endpoints catwalk leaves to the environment.
var knownBaseURLs = map[string]string{
	"openai":    "https://api.openai.com/v1",
	"anthropic": "https://api.anthropic.com",
}

func apiOf(t catwalk.Type) string {
	switch t {
	case catwalk.TypeAnthropic:
		return APIAnthropicMessages
	case catwalk.TypeOpenAI, catwalk.TypeOpenAICompat, catwalk.TypeOpenRouter, catwalk.TypeVercel:
		return APIOpenAIChat
	}
	return ""
}

func newCatalogue(all []catwalk.Provider) *catalogue {
	c := &catalogue{byKind: map[string]*catProvider{}}
	for _, p := range all {
		kind := string(p.ID)
		if kind == "" || c.byKind[kind] != nil {
			continue
		}
		cp := &catProvider{kind: kind, api: apiOf(p.Type), large: p.DefaultLargeModelID, byID: map[string]int{}}
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

// lookup finds a model of a provider kind by id or undated alias.
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

// LookupModel returns the catalogue's entry for model id of a provider kind
// (catwalk's provider id: "openai", "anthropic", "openrouter", "groq",
// "deepseek", …). An undated id finds its dated entry: "claude-sonnet-4-5"
// finds "claude-sonnet-4-5-20250929". The first call loads the catalogue.
func LookupModel(providerKind, id string) (agent.Model, bool) {
	return defaultCatalogue().lookup(providerKind, id)
}

// CatalogueModels returns the catalogue's models of a provider kind, in
// catalogue order, or nil for an unknown kind. The first call loads the
// catalogue.
func CatalogueModels(providerKind string) []agent.Model {
	return defaultCatalogue().models(providerKind)
}
