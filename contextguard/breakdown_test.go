package contextguard

import (
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
)

// TestFixedPartsSumToTheEstimate: however the system prompt is cut and
// whatever the tools, the pieces sum to what the estimator counts for the
// request's fixed part, and each is within a token of its own size.
func TestFixedPartsSumToTheEstimate(t *testing.T) {
	tool := func(name string, n int) agent.ToolSpec {
		return agent.ToolSpec{Name: name, Description: strings.Repeat("d", n), Parameters: []byte(`{"type":"object"}`)}
	}
	for _, tc := range []struct {
		name   string
		system []string
		tools  []agent.ToolSpec
	}{
		{"nothing", nil, nil},
		{"empty prompt", []string{"", ""}, []agent.ToolSpec{tool("read", 10)}},
		{"one piece", []string{strings.Repeat("x", 1001)}, nil},
		{"pieces", []string{"base prompt", "\n\n# Skills\n" + strings.Repeat("s", 333), "\n\n# Context files\n" + strings.Repeat("c", 7)},
			[]agent.ToolSpec{tool("read", 101), tool("bash", 3), tool("mcp__git__log", 57)}},
		{"tools only", nil, []agent.ToolSpec{tool("a", 1), tool("b", 2), tool("c", 3)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, tools := FixedParts(tc.system, tc.tools)
			want := estimateFixed(agent.LLMContext{SystemPrompt: strings.Join(tc.system, ""), Tools: tc.tools})
			got := 0
			for _, n := range append(append([]int(nil), sys...), tools...) {
				got += n
			}
			if got != want {
				t.Fatalf("the pieces sum to %d, the estimator counts %d (%v %v)", got, want, sys, tools)
			}
			for i, tl := range tc.tools {
				alone := estimateFixed(agent.LLMContext{Tools: []agent.ToolSpec{tl}})
				if d := tools[i] - alone; d < -1 || d > 1 {
					t.Errorf("tool %s: %d tokens in the breakdown, %d alone", tl.Name, tools[i], alone)
				}
			}
		})
	}
}
