package contextguard

import (
	"testing"

	"github.com/steer-tui/steer/agent"
)

func TestPromptTokens(t *testing.T) {
	cases := []struct {
		name string
		b    Budget
		want int
	}{
		{"unknown window", Budget{Window: 0, Reserve: 1_000}, 0},
		{"200k, 16k out", Budget{Window: 200_000, Reserve: 16_384}, 183_616},
		{"200k, default reserve", Budget{Window: 200_000}, 183_616},
		{"200k, 64k out", Budget{Window: 200_000, Reserve: 64_000}, 136_000},
		{"8k, 1k out", Budget{Window: 8_192, Reserve: 1_024}, 7_168},
		{"8k, default reserve shrinks to keep half", Budget{Window: 8_192}, 4_096},
		{"32k, 30k out keeps 8,000", Budget{Window: 32_000, Reserve: 30_000}, 8_000},
		{"16k, reserve larger than the window", Budget{Window: 16_000, Reserve: 100_000}, 8_000},
		{"1k window keeps half", Budget{Window: 1_000, Reserve: 900}, 500},
	}
	for _, c := range cases {
		if got := c.b.PromptTokens(); got != c.want {
			t.Errorf("%s: PromptTokens = %d, want %d", c.name, got, c.want)
		}
	}
}

func TestBudgetFor(t *testing.T) {
	m := agent.Model{ContextWindow: 200_000, MaxOutput: 32_000}
	if got := BudgetFor(m, agent.StreamOptions{}); got != (Budget{Window: 200_000, Reserve: 32_000}) {
		t.Errorf("model max output: %+v", got)
	}
	if got := BudgetFor(m, agent.StreamOptions{MaxTokens: 4_000}); got != (Budget{Window: 200_000, Reserve: 4_000}) {
		t.Errorf("request max tokens: %+v", got)
	}
}
