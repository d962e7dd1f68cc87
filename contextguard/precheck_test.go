package contextguard

import (
	"errors"
	"testing"

	"github.com/steer-tui/steer/agent"
)

func TestPrecheck(t *testing.T) {
	b8k := Budget{Window: 8_192, Reserve: 1_024}
	small, little, huge := boring(3_000), boring(12_000), boring(100_000)
	cases := []struct {
		name   string
		msgs   []agent.Message
		fence  int
		budget Budget
		want   Route // RouteFits for no signal
	}{
		{"nothing after the fence", session(huge), 3, b8k, RouteFits},
		{"fence past the end", session(huge), 10, b8k, RouteFits},
		{"only a prompt after the fence", append(session(small, small, small, small), userAt("more", t0)), 9, b8k, RouteFits},
		{"new result, fits", session(small), 1, b8k, RouteFits},
		{"new result, truncation is enough", session(little), 1, b8k, RouteFits},
		{"new results need compaction", session(small, small, small, small), 7, b8k, RouteCompactOnly},
		{"a new result far over its limit", session(huge), 1, b8k, RouteCompactThenTruncate},
		{"negative fence reads everything", session(huge), -1, b8k, RouteCompactThenTruncate},
		{"unknown window", session(huge, huge), 0, Budget{}, RouteFits},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sig := NewGuard(NewEstimator()).Precheck(agent.LLMContext{Messages: c.msgs}, c.fence, c.budget)
			if c.want == RouteFits {
				if sig != nil {
					t.Fatalf("unexpected signal: %v", sig)
				}
				return
			}
			if sig == nil || sig.Pressure.Route != c.want || sig.NewToolResults == 0 || sig.Pressure.Overflow <= 0 {
				t.Fatalf("signal %+v, want route %v", sig, c.want)
			}
			var err error = sig
			var got *MidTurnSignal
			if !errors.As(err, &got) || got != sig {
				t.Fatal("the signal is not found through an error seam")
			}
		})
	}
}
