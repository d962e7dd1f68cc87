package config

import (
	"testing"

	"github.com/steer-tui/steer/agent"
)

// TestModelThinkingDefaults: models[].thinking is the model's own default
// level, by id; models without one are left out.
func TestModelThinkingDefaults(t *testing.T) {
	cfg := mustLoad(t, `{"providers": {"local": {"api": "scripted", "models": [{"id": "q", "thinking": "high"}, {"id": "r"}]}}}`, nil)
	for _, p := range cfg.Providers {
		if p.Name != "local" {
			continue
		}
		if len(p.Thinking) != 1 || p.Thinking["q"] != agent.ThinkingHigh {
			t.Fatalf("Thinking = %v, want q: high", p.Thinking)
		}
		return
	}
	t.Fatal("no provider local")
}
