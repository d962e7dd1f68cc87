package config

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm"
	"github.com/steer-tui/steer/assets"
)

// provider builds and checks one provider; path is its JSON path.
func (b *builder) provider(name string, fp *fileProvider, path string) (Provider, error) {
	if strings.Contains(name, "/") || strings.TrimSpace(name) == "" {
		return Provider{}, b.errAt(path, "a provider name must be non-empty and cannot contain \"/\"")
	}
	p := Provider{Name: name, API: fp.API, Headers: fp.Headers, Timeout: seconds(fp.TimeoutSeconds),
		FirstProgressTimeout: seconds(fp.FirstProgressTimeoutSeconds)}
	if err := b.nonNegative(path+".timeoutSeconds", fp.TimeoutSeconds); err != nil {
		return Provider{}, err
	}
	if err := b.nonNegative(path+".firstProgressTimeoutSeconds", fp.FirstProgressTimeoutSeconds); err != nil {
		return Provider{}, err
	}
	if p.API == "" && name == assets.OfflineProvider {
		p.API = llm.Scripted
	}
	api, known := b.apis.Find(p.API)
	if p.API != "" && !known {
		return Provider{}, b.errAt(path+".api", "unknown api %q (want %s)", p.API, oneOf(b.apis.Names()...))
	}
	if p.BaseURL = strings.TrimSuffix(fp.BaseURL, "/"); p.BaseURL != "" {
		if err := b.checkURL(path+".baseURL", p.BaseURL); err != nil {
			return Provider{}, err
		}
	}
	if api.Models != nil {
		if fp.Discover {
			return Provider{}, b.errAt(path+".discover", discoverNeeds, p.API)
		}
		return b.offlineProvider(p, fp, path, api.Models())
	}
	// A real provider: the catalogue knows its kind, default API, base URL
	// and key variable — but not the user's own server (see ownServer).
	var cp *catProvider
	if !ownServer(name, p) {
		cp = b.catalogue().kindOf(name, p.BaseURL)
	}
	if cp != nil {
		p.Kind = cp.kind
	}
	switch {
	case p.API == "" && cp != nil && cp.api != "":
		p.API = cp.api
	case p.API == "":
		return Provider{}, b.errAt(path, "\"api\" is required (%s)", oneOf(b.apis.Names()...))
	}
	if p.Discover = fp.Discover; p.Discover && p.API != llm.OpenAIChat {
		return Provider{}, b.errAt(path+".discover", discoverNeeds, p.API)
	}
	if p.BaseURL == "" {
		if cp == nil || cp.baseURL == "" || cp.api != p.API {
			return Provider{}, b.errAt(path, "\"baseURL\" is required: steer knows no endpoint for provider %q", name)
		}
		p.BaseURL = cp.baseURL
	}
	var err error
	if p.Models, err = b.models(p, fp.Models, path, cp, nil); err != nil {
		return Provider{}, err
	}
	if p.Thinking, err = b.thinkingDefaults(fp.Models, path); err != nil {
		return Provider{}, err
	}
	keyEnv := ""
	if cp != nil {
		keyEnv = cp.keyEnv
	}
	if p.Profiles, err = b.profiles(p, fp.Profiles, path, keyEnv, p.SelfHosted()); err != nil {
		return Provider{}, err
	}
	b.defaults[name] = b.providerDefault(p, fp, cp)
	return p, nil
}

// discoverNeeds is the error of "discover" on a provider of another API
// than openai-chat, which both kinds of server that list their models
// (Ollama and the OpenAI-compatible ones, agent/runner/discover) speak.
const discoverNeeds = "needs \"api\": \"openai-chat\", not %q: steer lists the models of Ollama and OpenAI-compatible servers"

func (b *builder) checkURL(path, raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return b.errAt(path, "not a valid URL")
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return b.errAt(path, "%q is not an http(s) URL", u.Redacted())
	}
	return nil
}

// kindOf finds the catalogue provider a configured one is: by name, else by
// base URL (exactly, else by a host only one catalogue provider uses).
func (c *catalogue) kindOf(name, baseURL string) *catProvider {
	if cp := c.byKind[name]; cp != nil {
		return cp
	}
	u, err := url.Parse(baseURL)
	if baseURL == "" || err != nil {
		return nil
	}
	var byHost []*catProvider
	for _, cp := range c.providers {
		if cp.baseURL == "" {
			continue
		}
		if strings.EqualFold(cp.baseURL, baseURL) {
			return cp
		}
		if cu, err := url.Parse(cp.baseURL); err == nil && strings.EqualFold(cu.Host, u.Host) {
			byHost = append(byHost, cp)
		}
	}
	if len(byHost) == 1 {
		return byHost[0]
	}
	return nil
}

// offlineProvider builds a provider of an API with its own models (the
// scripted one): no catalogue, no base URL, no key.
func (b *builder) offlineProvider(p Provider, fp *fileProvider, path string, own []agent.Model) (Provider, error) {
	var err error
	if p.Models, err = b.models(p, fp.Models, path, nil, own); err != nil {
		return Provider{}, err
	}
	if p.Thinking, err = b.thinkingDefaults(fp.Models, path); err != nil {
		return Provider{}, err
	}
	if p.Profiles, err = b.profiles(p, fp.Profiles, path, "", true); err != nil {
		return Provider{}, err
	}
	b.defaults[p.Name] = p.Models[0].ID
	return p, nil
}

// profiles reads the keys. With none configured, a real provider gets one
// profile, <name>:default, reading the conventional variable keyEnv. A
// profile whose variable is unset is kept but unusable (Profile.Unusable):
// an unset key is not a mistake in the file, and the other providers still
// work.
func (b *builder) profiles(p Provider, fps []fileProfile, path, keyEnv string, keyless bool) ([]Profile, error) {
	if len(fps) == 0 {
		def := Profile{ID: p.Name + ":default"}
		switch {
		case keyless:
		case keyEnv == "":
			return nil, b.errAt(path, "no API key: add a profile with \"apiKeyEnv\" (the variable holding the key) or \"apiKey\"")
		default:
			def.KeyEnv, def.Key = keyEnv, Secret(b.env(keyEnv))
			if def.Key == "" {
				def.Unusable = keyEnv + " is not set"
			}
		}
		return []Profile{def}, nil
	}
	out := make([]Profile, 0, len(fps))
	for i, fp := range fps {
		pp := indexPath(path+".profiles", i)
		pr := Profile{ID: fp.ID}
		if pr.ID == "" {
			pr.ID = p.Name + ":default"
			if len(fps) > 1 {
				pr.ID = p.Name + ":" + strconv.Itoa(i+1)
			}
		}
		switch {
		case fp.APIKeyEnv != "" && fp.APIKey != "":
			return nil, b.errAt(pp, "give \"apiKeyEnv\" or \"apiKey\", not both")
		case fp.APIKeyEnv != "":
			if !isVarName(fp.APIKeyEnv) {
				// Never echo it: it may be the key itself, pasted in the wrong place.
				return nil, b.errAt(pp+".apiKeyEnv", "must name an environment variable (letters, digits and _); a key itself goes in \"apiKey\"")
			}
			pr.KeyEnv, pr.Key = fp.APIKeyEnv, Secret(b.env(fp.APIKeyEnv))
			switch {
			case pr.Key != "":
			case isConventionalVar(fp.APIKeyEnv):
				pr.Unusable = fp.APIKeyEnv + " is not set"
			default:
				pr.Unusable = "the variable named by \"apiKeyEnv\" of profile " + pr.ID + " is not set"
			}
		case fp.APIKey != "":
			pr.Key = Secret(fp.APIKey)
		case !keyless:
			return nil, b.errAt(pp, "needs \"apiKeyEnv\" (the variable holding the key) or \"apiKey\"")
		}
		out = append(out, pr)
	}
	return out, nil
}

func isVarName(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// isConventionalVar: upper case, like every key variable, and so safe to
// name in an error; a mixed-case "name" may be a key pasted by mistake.
func isConventionalVar(s string) bool { return strings.ToUpper(s) == s }

// models builds the configured models, filling what they leave out from the
// catalogue (cp) or the API's own models (own, for an API that has them);
// with none listed, the provider offers the catalogue's (or its own) models.
func (b *builder) models(p Provider, fms []fileModel, path string, cp *catProvider, own []agent.Model) ([]agent.Model, error) {
	known := func(id string) (agent.Model, bool) {
		if own != nil {
			i := slices.IndexFunc(own, func(m agent.Model) bool { return m.ID == id })
			if i < 0 {
				return agent.Model{}, false
			}
			return own[i], true
		}
		if cp == nil {
			return agent.Model{}, false
		}
		return b.catalogue().lookup(cp.kind, id)
	}
	var out []agent.Model
	switch {
	case len(fms) > 0:
	case own != nil:
		out = own
	case cp != nil && !p.Discover: // a discovering provider's server says
		out = b.catalogue().models(cp.kind)
	}
	seen := map[string]bool{}
	for i, fm := range fms {
		mp := indexPath(path+".models", i)
		if fm.ID == "" {
			return nil, b.errAt(mp, "\"id\" is required")
		}
		if seen[fm.ID] {
			return nil, b.errAt(mp+".id", "model %q is listed twice", fm.ID)
		}
		seen[fm.ID] = true
		if err := b.checkModel(fm, mp); err != nil {
			return nil, err
		}
		m, _ := known(fm.ID)
		m.ID = fm.ID
		if fm.Name != "" {
			m.Name = fm.Name
		}
		if fm.ContextWindow != nil {
			m.ContextWindow = *fm.ContextWindow
		}
		if fm.MaxOutput != nil {
			m.MaxOutput = *fm.MaxOutput
		}
		if fm.Reasoning != nil {
			m.Reasoning = *fm.Reasoning
		}
		if fm.Input != nil {
			m.Input = fm.Input
		}
		if fm.Cost != nil {
			m.Cost = agent.ModelCost(*fm.Cost)
		}
		out = append(out, m)
	}
	for i := range out {
		out[i] = adopt(p, out[i], out[i].ID)
	}
	return out, nil
}

// thinkingDefaults reads models[].thinking: each model's own default
// thinking level, by id; nil when no model has one.
func (b *builder) thinkingDefaults(fms []fileModel, path string) (map[string]agent.ThinkingLevel, error) {
	var out map[string]agent.ThinkingLevel
	for i, fm := range fms {
		if fm.Thinking == "" {
			continue
		}
		level, ok := agent.ParseThinkingLevel(fm.Thinking)
		if !ok {
			return nil, b.errAt(indexPath(path+".models", i)+".thinking", "unknown thinking level %q (want %s)", fm.Thinking,
				oneOf("off", "minimal", "low", "medium", "high", "xhigh"))
		}
		if out == nil {
			out = map[string]agent.ThinkingLevel{}
		}
		out[fm.ID] = level
	}
	return out, nil
}

// adopt makes a model one of p's.
func adopt(p Provider, m agent.Model, id string) agent.Model {
	m.Provider, m.API, m.BaseURL, m.ID = p.Name, p.API, p.BaseURL, id
	return m
}

func (b *builder) checkModel(fm fileModel, mp string) error {
	if fm.ContextWindow != nil && *fm.ContextWindow <= 0 {
		return b.errAt(mp+".contextWindow", "must be greater than 0, got %d", *fm.ContextWindow)
	}
	if fm.MaxOutput != nil && *fm.MaxOutput <= 0 {
		return b.errAt(mp+".maxOutput", "must be greater than 0, got %d", *fm.MaxOutput)
	}
	for j, in := range fm.Input {
		if in != "text" && in != "image" {
			return b.errAt(indexPath(mp+".input", j), "unknown input kind %q (want text or image)", in)
		}
	}
	if c := fm.Cost; c != nil {
		for _, f := range []struct {
			key string
			v   float64
		}{{"input", c.Input}, {"output", c.Output}, {"cacheRead", c.CacheRead}, {"cacheWrite", c.CacheWrite}} {
			if err := b.nonNegative(mp+".cost."+f.key, f.v); err != nil {
				return err
			}
		}
	}
	return nil
}
