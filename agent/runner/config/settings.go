package config

import (
	"maps"
	"slices"
	"strings"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/tools"
)

// settings checks and stores the agent, contextEngines, auth and tools
// sections.
func (b *builder) settings(c *Config, fc *fileConfig) error {
	if len(fc.ContextEngines) > 0 {
		c.ContextEngines = map[string]ContextEngine{}
	}
	for _, name := range slices.Sorted(maps.Keys(fc.ContextEngines)) {
		fe := fc.ContextEngines[name]
		path := joinPath("contextEngines", name)
		switch {
		case name == "legacy":
			return b.errAt(path, "\"legacy\" is the built-in engine and cannot be redefined")
		case len(fe.Command) == 0 || fe.Command[0] == "":
			return b.errAt(path, "\"command\" is required, e.g. [\"python3\", \"engine.py\"]")
		}
		if err := b.nonNegative(path+".timeoutSeconds", fe.TimeoutSeconds); err != nil {
			return err
		}
		c.ContextEngines[name] = ContextEngine{Command: fe.Command, Timeout: seconds(fe.TimeoutSeconds), Dir: b.dirOf(path)}
	}

	fa := fc.Agent
	c.Agent.Timeout = DefaultRunTimeout
	if fa.TimeoutSeconds != nil {
		if err := b.nonNegative("agent.timeoutSeconds", *fa.TimeoutSeconds); err != nil {
			return err
		}
		c.Agent.Timeout = seconds(*fa.TimeoutSeconds)
	}
	if fa.MaxConcurrent < 0 {
		return b.errAt("agent.maxConcurrent", "must not be negative, got %d", fa.MaxConcurrent)
	}
	c.Agent.MaxConcurrent, c.Agent.ContextEngine = fa.MaxConcurrent, fa.ContextEngine
	if e := fa.ContextEngine; e != "" && e != LegacyEngine {
		if _, ok := c.ContextEngines[e]; !ok {
			known := append([]string{LegacyEngine}, slices.Sorted(maps.Keys(c.ContextEngines))...)
			return b.errAt("agent.contextEngine", "unknown context engine %q (known: %s)", e, strings.Join(known, ", "))
		}
	}
	if fa.Thinking != "" {
		level, ok := agent.ParseThinkingLevel(fa.Thinking)
		if !ok {
			return b.errAt("agent.thinking", "unknown thinking level %q (want %s)", fa.Thinking,
				oneOf("off", "minimal", "low", "medium", "high", "xhigh"))
		}
		c.Agent.Thinking = level
	}
	for _, m := range []struct {
		key  string
		in   string
		dest *agent.QueueMode
	}{{"steeringMode", fa.SteeringMode, &c.Agent.SteeringMode}, {"followUpMode", fa.FollowUpMode, &c.Agent.FollowUpMode}} {
		if m.in == "" {
			continue
		}
		mode, ok := agent.ParseQueueMode(m.in)
		if !ok {
			return b.errAt("agent."+m.key, "unknown mode %q (want %s)", m.in, oneOf(string(agent.QueueOneAtATime), string(agent.QueueAll)))
		}
		*m.dest = mode
	}
	if n := fa.MaxInputBytes; n != nil {
		if *n <= 0 {
			return b.errAt("agent.maxInputBytes", "must be greater than 0, got %d", *n)
		}
		c.Agent.MaxInputBytes = *n
	}

	cd := fc.Auth.Cooldowns
	const hour, minute = 3600, 60
	for _, f := range []struct {
		key string
		v   float64
	}{
		{"billingBackoffHours", cd.BillingBackoffHours},
		{"billingMaxHours", cd.BillingMaxHours},
		{"authPermanentBackoffMinutes", cd.AuthPermanentBackoffMinutes},
		{"authPermanentMaxMinutes", cd.AuthPermanentMaxMinutes},
		{"failureWindowHours", cd.FailureWindowHours},
	} {
		if err := b.nonNegative("auth.cooldowns."+f.key, f.v); err != nil {
			return err
		}
	}
	c.Auth.Cooldowns = Cooldowns{
		BillingBackoff:       seconds(cd.BillingBackoffHours * hour),
		BillingMax:           seconds(cd.BillingMaxHours * hour),
		AuthPermanentBackoff: seconds(cd.AuthPermanentBackoffMinutes * minute),
		AuthPermanentMax:     seconds(cd.AuthPermanentMaxMinutes * minute),
		FailureWindow:        seconds(cd.FailureWindowHours * hour),
	}
	if w := fc.Auth.MaxCooldownWaitSeconds; w != nil {
		if err := b.nonNegative("auth.maxCooldownWaitSeconds", *w); err != nil {
			return err
		}
		d := seconds(*w)
		c.Auth.MaxCooldownWait = &d
	}

	if a := fc.Tools.Approval; a != "" {
		mode, err := tools.ParseApproval(a)
		if err != nil {
			return b.errAt("tools.approval", "%v", err)
		}
		c.Tools.Approval = mode
	}
	if err := b.sandbox(c, fc.Tools.Sandbox); err != nil {
		return err
	}
	c.Tools.Fetch = FetchSettings{AllowPrivate: fc.Tools.Fetch.AllowPrivate}

	fb := fc.Budget
	for _, f := range []struct {
		key string
		v   float64
	}{{"session", fb.Session}, {"run", fb.Run}, {"sessionTokens", float64(fb.SessionTokens)}, {"runTokens", float64(fb.RunTokens)}} {
		if err := b.nonNegative("budget."+f.key, f.v); err != nil {
			return err
		}
	}
	c.Budget = Budget{SessionUSD: fb.Session, RunUSD: fb.Run, SessionTokens: fb.SessionTokens, RunTokens: fb.RunTokens}

	if t := fc.UI.Theme; t != "" {
		theme, err := ParseTheme(t)
		if err != nil {
			return b.errAt("ui.theme", "%v", err)
		}
		c.UI.Theme = theme
	}
	c.UI.Plain = fc.UI.Plain
	return b.uiTerminal(c, fc.UI)
}

// references checks that model, fallbacks and aliases name models that
// resolve, in file order.
func (b *builder) references(c *Config, fc *fileConfig, root *node) error {
	if len(fc.Aliases) > 0 {
		c.Aliases = map[string]string{}
	}
	for _, f := range root.get("aliases").keysOrNil() {
		path := joinPath("aliases", f.name)
		target := fc.Aliases[f.name]
		if _, isAlias := fc.Aliases[target]; isAlias {
			return b.errAt(path, "%q is another alias; an alias must name a provider/model", target)
		}
		if _, err := c.resolve(target, false); err != nil {
			return b.errAt(path, "%v", err)
		}
		c.Aliases[f.name] = target
	}
	for i, ref := range fc.Fallbacks {
		if _, err := c.resolve(ref, true); err != nil {
			return b.errAt(indexPath("fallbacks", i), "%v", err)
		}
	}
	c.Fallbacks = fc.Fallbacks
	if fc.Model != "" {
		if _, err := c.resolve(fc.Model, true); err != nil {
			return b.errAt("model", "%v", err)
		}
		c.Model = fc.Model
	}
	return nil
}

// preferredModels are the defaults for providers configured from a key
// alone: well-known, capable models rather than the newest or priciest.
var preferredModels = map[string][]string{
	"anthropic": {"claude-sonnet-4-5"},
	"openai":    {"gpt-4.1"},
}

// providerDefault is the model a provider offers first: the first one the
// file lists, else a preferred catalogue model, catwalk's default, or the
// first one.
func (b *builder) providerDefault(p Provider, fp *fileProvider, cp *catProvider) string {
	if len(p.Models) == 0 {
		return ""
	}
	if len(fp.Models) == 0 && cp != nil {
		ids := append(slices.Clone(preferredModels[cp.kind]), cp.large)
		for _, id := range ids {
			if m, ok := b.catalogue().lookup(cp.kind, id); ok {
				return m.ID
			}
		}
	}
	return p.Models[0].ID
}

// defaultModel is the default model of the first provider that can be
// used; when none can, the first provider's, so that choosing it names the
// missing key; "" without providers.
func (b *builder) defaultModel(c *Config) string {
	first := ""
	for _, p := range c.Providers {
		id := b.defaults[p.Name]
		if id == "" {
			continue
		}
		if p.Unusable() == "" {
			return p.Name + "/" + id
		}
		if first == "" {
			first = p.Name + "/" + id
		}
	}
	return first
}
