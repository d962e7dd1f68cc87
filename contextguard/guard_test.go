package contextguard

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/steer-tui/steer/agent"
)

// session is a user prompt followed by one read call and result per text.
func session(results ...string) []agent.Message {
	msgs := []agent.Message{userAt("look at the files", t0)}
	for i, r := range results {
		id := fmt.Sprint("call", i)
		msgs = append(msgs, assistantCall(id, "read", map[string]any{"path": fmt.Sprint("f", i)}), resultFor(id, "read", r))
	}
	return msgs
}

func deepCopy(msgs []agent.Message) []agent.Message {
	out := make([]agent.Message, len(msgs))
	for i, m := range msgs {
		out[i] = m.Clone()
	}
	return out
}

func TestGuardApply(t *testing.T) {
	small := boring(3_000)
	huge := boring(100_000) + "\nerror: boom\n"
	b8k := Budget{Window: 8_192, Reserve: 1_024} // 7,168 prompt tokens, results limited to 4,095 bytes
	cases := []struct {
		name          string
		msgs          []agent.Message
		budget        Budget
		wantTruncated int
		wantCompacted []int // indexes of messages replaced by the placeholder
		wantFits      bool
		wantRoute     Route
	}{
		{"fits as it is", session(small), b8k, 0, nil, true, RouteFits},
		{"a result a little over its limit is cut", session(boring(12_000)), b8k, 1, nil, true, RouteTruncateToolResultsOnly},
		// 1.5 × the overflow, at 4 bytes per token, is far more than cutting frees
		{"a result far over its limit is cut", session(huge), b8k, 1, nil, true, RouteCompactThenTruncate},
		{"the oldest results go first", session(small, small, small, small), b8k, 0, []int{2}, true, RouteCompactOnly},
		{"as many as needed", session(small, small, small, small, small, small), b8k, 0, []int{2, 4, 6}, true, RouteCompactOnly},
		{"cut, then replaced", session(huge, huge, huge), b8k, 3, []int{2}, true, RouteCompactThenTruncate},
		{"nothing left to replace", append(session(small), userAt(boring(40_000), t0)), b8k, 0, []int{2}, false, RouteCompactOnly},
		{"unknown window: only the cut, at the smallest limit", session(boring(20_000), small, small, small, small), Budget{}, 1, nil, true, RouteFits},
		{"a 200k window takes it all", session(boring(60_000), boring(60_000), small), Budget{Window: 200_000}, 0, nil, true, RouteFits},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := NewGuard(NewEstimator())
			in := agent.LLMContext{SystemPrompt: "You are steer.", Messages: c.msgs}
			stored := deepCopy(c.msgs)
			out, rep := g.Apply(in, c.budget)

			if !reflect.DeepEqual(c.msgs, stored) {
				t.Fatal("the guard modified the stored transcript")
			}
			if rep.Truncated != c.wantTruncated || rep.Fits != c.wantFits || rep.Pressure.Route != c.wantRoute {
				t.Fatalf("truncated %d fits %v route %v, want %d %v %v", rep.Truncated, rep.Fits, rep.Pressure.Route,
					c.wantTruncated, c.wantFits, c.wantRoute)
			}
			if len(out.Messages) != len(c.msgs) {
				t.Fatal("messages were added or removed")
			}
			var compacted []int
			for i, m := range out.Messages {
				if m.Role == agent.RoleToolResult && m.TextContent() == CompactedPlaceholder {
					compacted = append(compacted, i)
					if m.ToolCallID != c.msgs[i].ToolCallID {
						t.Fatal("the placeholder lost its tool call id")
					}
				}
				if m.Role == agent.RoleToolResult && m.TextContent() != CompactedPlaceholder {
					if limit := ToolResultLimit(c.budget.Window); len(m.TextContent()) > limit+suffixLen(len(c.msgs[i].TextContent())) {
						t.Fatalf("message %d sends %d bytes, limit %d", i, len(m.TextContent()), limit)
					}
				}
			}
			if !reflect.DeepEqual(compacted, c.wantCompacted) || rep.Compacted != len(c.wantCompacted) {
				t.Fatalf("compacted %v (%d), want %v", compacted, rep.Compacted, c.wantCompacted)
			}
			if got := EstimateContext(out); got != rep.Tokens {
				t.Fatalf("report says %d tokens, what is sent measures %d", rep.Tokens, got)
			}
			if c.wantFits && c.budget.Known() && rep.Tokens > c.budget.PromptTokens() {
				t.Fatalf("%d tokens over a budget of %d", rep.Tokens, c.budget.PromptTokens())
			}
			if rep.Truncated == 0 && rep.Compacted == 0 && &out.Messages[0] != &c.msgs[0] {
				t.Fatal("an untouched request was copied")
			}
		})
	}
}

func TestGuardKeepsImagesOfCutResultsAndDropsThoseOfReplacedOnes(t *testing.T) {
	withImage := resultFor("c", "read", boring(10_000))
	withImage.Content = append(withImage.Content, image())
	msgs := []agent.Message{userAt("go", t0), assistantCall("c", "read", nil), withImage}

	out, rep := NewGuard(nil).Apply(agent.LLMContext{Messages: msgs}, Budget{Window: 16_000, Reserve: 1_000})
	if rep.Truncated != 1 || out.Messages[2].Content[1].Type != agent.ContentImage {
		t.Fatalf("cut result lost its image: %+v", rep)
	}
	out, rep = NewGuard(nil).Apply(agent.LLMContext{Messages: msgs}, Budget{Window: 4_000, Reserve: 1_000})
	if rep.Compacted != 1 || len(out.Messages[2].Content) != 1 {
		t.Fatalf("replaced result kept its image: %+v", rep)
	}
}

func TestGuardAssessDoesNotChangeAnything(t *testing.T) {
	msgs := session(strings.Repeat("x", 50_000))
	stored := deepCopy(msgs)
	p := NewGuard(nil).Assess(agent.LLMContext{Messages: msgs}, Budget{Window: 8_192, Reserve: 1_024})
	if !reflect.DeepEqual(msgs, stored) {
		t.Fatal("Assess modified the messages")
	}
	if p.Budget != 7_168 || p.Overflow != p.Tokens-7_168 || p.ReducibleChars != 50_000-4_095 || p.Route != RouteCompactThenTruncate {
		t.Fatalf("pressure %+v", p)
	}
}

func TestGuardSendsTheSameCutOnEveryRequest(t *testing.T) {
	g := NewGuard(NewEstimator())
	msgs := session(boring(100_000) + "\nerror: x\n")
	b := Budget{Window: 32_000, Reserve: 4_000}
	first, _ := g.Apply(agent.LLMContext{Messages: msgs}, b)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			again, rep := g.Apply(agent.LLMContext{Messages: msgs}, b)
			if rep.Truncated != 1 || &again.Messages[2].Content[0] != &first.Messages[2].Content[0] {
				t.Error("a later request cut the result again")
			}
		})
	}
	wg.Wait()
	other, _ := g.Apply(agent.LLMContext{Messages: msgs}, Budget{Window: 8_192, Reserve: 1_000})
	if len(other.Messages[2].TextContent()) >= len(first.Messages[2].TextContent()) {
		t.Fatal("a smaller window reused the cut of a larger one")
	}
}
