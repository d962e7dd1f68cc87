package runner

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/steer-tui/steer/agent"
)

// catalogFor is a catalog over providers, resolving as ResolveModel does.
func catalogFor(fallbacks []string, providers ...Provider) *catalog {
	return newCatalog(Options{Providers: providers, Fallbacks: fallbacks, Thinking: agent.ThinkingLow,
		Resolve: func(ref string) (agent.Model, error) { return ResolveModel(providers, ref) }})
}

func TestCatalogModelChain(t *testing.T) {
	stream := scripted(func(_ context.Context, w *agent.StreamWriter, _ agent.Model, _ agent.StreamOptions) {})
	big, small := agent.Model{Provider: "p", ID: "big"}, agent.Model{Provider: "p", ID: "small"}
	broken := agent.Model{Provider: "q", ID: "broken"}
	silent := agent.Model{Provider: "s", ID: "silent"}
	providers := []Provider{
		{Name: "p", Models: []agent.Model{big, small}, Stream: stream},
		{Name: "q", Models: []agent.Model{broken}, Stream: stream, Unusable: "Q_KEY is not set"},
		{Name: "s", Models: []agent.Model{silent}}, // no stream
	}
	cases := []struct {
		name      string
		fallbacks []string
		want      []string
	}{
		{"no fallbacks", nil, []string{"p/big"}},
		{"one fallback", []string{"p/small"}, []string{"p/big", "p/small"}},
		{"each model once", []string{"p/small", "p/big", "small"}, []string{"p/big", "p/small"}},
		{"unknown refs are passed over", []string{"nope", "p/small"}, []string{"p/big", "p/small"}},
		{"unusable providers are passed over", []string{"q/broken", "p/small"}, []string{"p/big", "p/small"}},
		{"models no stream serves are passed over", []string{"s/silent"}, []string{"p/big"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, m := range catalogFor(tc.fallbacks, providers...).modelChain(big) {
				got = append(got, m.Ref())
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("chain = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCatalogDefaultsAndProblems(t *testing.T) {
	c := catalogFor(nil,
		Provider{Name: "p", Models: []agent.Model{{Provider: "p", ID: "deep"}}, Thinking: map[string]agent.ThinkingLevel{"deep": agent.ThinkingHigh},
			Profiles: []Profile{{ID: "p:a"}, {ID: "p:b"}}},
		Provider{Name: "q", Unusable: "Q_KEY is not set", Thinking: map[string]agent.ThinkingLevel{"other": agent.ThinkingOff}})
	cases := []struct {
		model    agent.Model
		thinking agent.ThinkingLevel
		problem  string
	}{
		{agent.Model{Provider: "p", ID: "deep"}, agent.ThinkingHigh, ""},
		{agent.Model{Provider: "p", ID: "plain"}, agent.ThinkingLow, ""},
		{agent.Model{Provider: "q", ID: "deep"}, agent.ThinkingLow, "Q_KEY is not set"}, // deep's level is p's
		{agent.Model{Provider: "q", ID: "other"}, agent.ThinkingOff, "Q_KEY is not set"},
	}
	for _, tc := range cases {
		if got := c.defaultThinking(tc.model); got != tc.thinking {
			t.Errorf("defaultThinking(%s) = %s, want %s", tc.model.Ref(), got, tc.thinking)
		}
		if got := c.problem(tc.model); got != tc.problem {
			t.Errorf("problem(%s) = %q, want %q", tc.model.Ref(), got, tc.problem)
		}
	}
	for id, known := range map[string]bool{"": true, "p:a": true, "p:b": true, "q:default": true, "p:c": false} {
		err := c.checkProfile(id)
		var unknown *UnknownProfileError
		if known != (err == nil) || !known && (!errors.As(err, &unknown) || !slices.Equal(unknown.Known, []string{"p:a", "p:b", "q:default"})) {
			t.Errorf("checkProfile(%q) = %v, want known %v", id, err, known)
		}
	}
}

func TestThinkingChoice(t *testing.T) {
	deep, plain := agent.Model{ID: "deep"}, agent.Model{ID: "plain"}
	defaults := func(m agent.Model) agent.ThinkingLevel {
		if m.ID == "deep" {
			return agent.ThinkingHigh
		}
		return agent.ThinkingOff
	}
	cases := []struct {
		name  string
		steps func(c *thinkingChoice)
		want  []agent.ThinkingLevel // the levels set, in order
	}{
		{"an unchosen level follows the model", func(c *thinkingChoice) { c.follow(deep); c.follow(plain) },
			[]agent.ThinkingLevel{agent.ThinkingHigh, agent.ThinkingOff}},
		{"a chosen level outlasts a change of model", func(c *thinkingChoice) { c.choose(agent.ThinkingLow); c.follow(deep) },
			[]agent.ThinkingLevel{agent.ThinkingLow}},
		{"a reset forgets the choice", func(c *thinkingChoice) { c.choose(agent.ThinkingLow); c.reset(plain); c.follow(deep) },
			[]agent.ThinkingLevel{agent.ThinkingLow, agent.ThinkingOff, agent.ThinkingHigh}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var set []agent.ThinkingLevel
			c := &thinkingChoice{set: func(l agent.ThinkingLevel) { set = append(set, l) }, defaults: defaults}
			tc.steps(c)
			if !slices.Equal(set, tc.want) {
				t.Errorf("levels set = %v, want %v", set, tc.want)
			}
		})
	}
}
