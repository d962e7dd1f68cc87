package discover

import (
	"reflect"
	"testing"

	"github.com/steer-tui/steer/agent"
)

func TestSame(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"qwen3:8b", "qwen3:8b", true},
		{"qwen3", "qwen3:latest", true},
		{"qwen3:latest", "qwen3", true},
		{"qwen3", "qwen3:8b", false},
		{"qwen3:8b", "qwen3:8b:latest", true},
		{"a", "b", false},
	}
	for _, tt := range tests {
		if got := Same(tt.a, tt.b); got != tt.want {
			t.Errorf("Same(%q, %q) = %v", tt.a, tt.b, got)
		}
	}
}

// The configured models come first, in their order, each taking from the
// server only what the configuration leaves unset; then the server's own.
func TestMerge(t *testing.T) {
	listed := []agent.Model{
		{Provider: "box", ID: "qwen3:latest", ContextWindow: 40960, Reasoning: true},
		{Provider: "box", ID: "llava:7b", ContextWindow: 4096, Input: []string{"text", "image"}},
		{Provider: "box", ID: "gemma3:4b", Name: "Gemma", ContextWindow: 131072, Input: []string{"text"}},
	}
	tests := []struct {
		name       string
		configured []agent.Model
		want       []agent.Model
	}{
		{"nothing configured", nil, listed},
		{"the config wins field by field",
			[]agent.Model{{Provider: "box", ID: "gemma3:4b", ContextWindow: 8192, MaxOutput: 1024}, {Provider: "box", ID: "qwen3", Name: "Qwen"}},
			[]agent.Model{
				{Provider: "box", ID: "gemma3:4b", Name: "Gemma", ContextWindow: 8192, MaxOutput: 1024, Input: []string{"text"}},
				{Provider: "box", ID: "qwen3", Name: "Qwen", ContextWindow: 40960, Reasoning: true},
				listed[1],
			}},
		{"configured, not listed: as configured",
			[]agent.Model{{Provider: "box", ID: "gone:1b", ContextWindow: 2048}},
			[]agent.Model{{Provider: "box", ID: "gone:1b", ContextWindow: 2048}, listed[0], listed[1], listed[2]}},
		{"the configured input stays",
			[]agent.Model{{Provider: "box", ID: "llava:7b", Input: []string{"text"}}},
			[]agent.Model{{Provider: "box", ID: "llava:7b", ContextWindow: 4096, Input: []string{"text"}}, listed[0], listed[2]}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Merge(tt.configured, listed); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Merge =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
	if got := Merge(nil, nil); len(got) != 0 {
		t.Errorf("Merge(nil, nil) = %v", got)
	}
}

func TestFillSaysWhetherItChanged(t *testing.T) {
	listed := []agent.Model{{ID: "m", ContextWindow: 4096}}
	tests := []struct {
		m           agent.Model
		wantWindow  int
		wantChanged bool
	}{
		{agent.Model{ID: "m"}, 4096, true},
		{agent.Model{ID: "m", ContextWindow: 4096}, 4096, false},
		{agent.Model{ID: "m", ContextWindow: 1000}, 1000, false},
		{agent.Model{ID: "other"}, 0, false},
	}
	for _, tt := range tests {
		got, changed := Fill(tt.m, listed)
		if got.ContextWindow != tt.wantWindow || changed != tt.wantChanged {
			t.Errorf("Fill(%+v) = window %d, changed %v; want %d, %v", tt.m, got.ContextWindow, changed, tt.wantWindow, tt.wantChanged)
		}
	}
}
