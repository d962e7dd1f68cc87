package filter

import (
	"slices"
	"testing"
)

func TestRank(t *testing.T) {
	models := []string{
		"anthropic/claude-opus-4-8", "anthropic/claude-opus-4-1-20250805", "openai/gpt-5.3-codex",
		"openai/o3", "openai/o3-mini", "openai/gpt-5-mini", "openai/gpt-5.4-mini", "scripted/echo", "scripted/tiny",
	}
	commands := []string{"new", "sessions", "tree", "fork", "clone", "model", "thinking", "compact", "export", "help", "quit"}
	cases := []struct {
		name    string
		targets []string
		query   string
		want    []string
	}{
		{"empty is everything in order", commands, "", commands},
		{"blank is everything", commands, "  ", commands},
		{"part of an id narrows to it", models, "opus-4-8", []string{"anthropic/claude-opus-4-8"}},
		{"case does not matter", models, "OPUS-4-8", []string{"anthropic/claude-opus-4-8"}},
		{"exact text beats a subsequence", models, "o3", []string{"openai/o3", "openai/o3-mini"}},
		{"a word start comes before the inside", models, "mini", []string{"openai/o3-mini", "openai/gpt-5-mini", "openai/gpt-5.4-mini"}},
		{"a prefix comes first", commands, "e", []string{"export", "new", "sessions", "tree", "clone", "model", "help"}},
		{"a prefix before a later occurrence", []string{"reset", "set"}, "se", []string{"set", "reset"}},
		{"a prefix of the provider", models, "scripted", []string{"scripted/echo", "scripted/tiny"}},
		{"fuzzy when nothing holds it", commands, "thk", []string{"thinking"}},
		{"fuzzy across separators", models, "gpt5m", []string{"openai/gpt-5-mini", "openai/gpt-5.4-mini"}},
		{"nothing matches", commands, "zzz", nil},
		{"no targets", nil, "a", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, i := range Rank(c.query, c.targets) {
				got = append(got, c.targets[i])
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("Rank(%q) = %q, want %q", c.query, got, c.want)
			}
		})
	}
}

func BenchmarkRank300(b *testing.B) {
	targets := make([]string, 0, 300)
	for i := range 300 {
		targets = append(targets, "openrouter/vendor-"+string(rune('a'+i%26))+"/model-"+string(rune('a'+i%7))+"-v1")
	}
	for b.Loop() {
		Rank("mdlv1", targets)
	}
}
