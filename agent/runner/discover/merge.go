package discover

import (
	"slices"

	"github.com/steer-tui/steer/agent"
)

// ollamaDefaultTag is the tag Ollama gives a model named without one.
const ollamaDefaultTag = ":latest"

// Same reports whether two ids of one provider name the same model: equal,
// or equal once Ollama's default tag is added to the one without a tag
// ("qwen3" and "qwen3:latest").
func Same(a, b string) bool {
	return a == b || a+ollamaDefaultTag == b || a == b+ollamaDefaultTag
}

// Merge is a provider's models: the configured ones in their order, each
// filled from the listed entry of the same model (Fill), then the listed
// models the configuration does not name, in the server's order.
func Merge(configured, listed []agent.Model) []agent.Model {
	out := make([]agent.Model, 0, len(configured)+len(listed))
	for _, m := range configured {
		m, _ = Fill(m, listed)
		out = append(out, m)
	}
	for _, m := range listed {
		if !Has(configured, m.ID) {
			out = append(out, m)
		}
	}
	return out
}

// Has reports whether models has model id (Same).
func Has(models []agent.Model, id string) bool {
	return slices.ContainsFunc(models, func(m agent.Model) bool { return Same(m.ID, id) })
}

// Fill is m with each field the configuration left unset (zero) taken from
// listed's entry of the same model, and whether that changed anything: the
// configuration wins field by field (Reasoning, a boolean, is set when
// either says so). m itself when listed has no entry.
func Fill(m agent.Model, listed []agent.Model) (agent.Model, bool) {
	i := slices.IndexFunc(listed, func(l agent.Model) bool { return Same(m.ID, l.ID) })
	if i < 0 {
		return m, false
	}
	l, was := listed[i], m
	if m.Name == "" {
		m.Name = l.Name
	}
	if m.ContextWindow == 0 {
		m.ContextWindow = l.ContextWindow
	}
	if m.MaxOutput == 0 {
		m.MaxOutput = l.MaxOutput
	}
	m.Reasoning = m.Reasoning || l.Reasoning
	if m.Input == nil {
		m.Input = slices.Clone(l.Input)
	}
	if m.Cost == (agent.ModelCost{}) {
		m.Cost = l.Cost
	}
	changed := m.Name != was.Name || m.ContextWindow != was.ContextWindow || m.MaxOutput != was.MaxOutput ||
		m.Reasoning != was.Reasoning || !slices.Equal(m.Input, was.Input) || m.Cost != was.Cost
	return m, changed
}
