package contextguard

import "testing"

func TestRouteFor(t *testing.T) {
	cases := []struct {
		name      string
		overflow  int // tokens
		reducible int // bytes
		want      Route
	}{
		{"under budget", -500, 0, RouteFits},
		{"exactly at budget", 0, 1_000_000, RouteFits},
		{"over, nothing to cut", 100, 0, RouteCompactOnly},
		{"over, negative reducible", 100, -1, RouteCompactOnly},
		// small overflow: the 2,048-byte slack dominates (100 tokens = 400 bytes)
		{"small, cut covers overflow + slack", 100, 400 + 2_048, RouteTruncateToolResultsOnly},
		{"small, one byte short of the slack", 100, 400 + 2_047, RouteCompactThenTruncate},
		{"small, cut covers only the overflow", 100, 400, RouteCompactThenTruncate},
		// large overflow: 1.5 × dominates (10,000 tokens = 40,000 bytes → 60,000)
		{"large, cut covers 1.5 ×", 10_000, 60_000, RouteTruncateToolResultsOnly},
		{"large, one byte short of 1.5 ×", 10_000, 59_999, RouteCompactThenTruncate},
		{"large, overflow + slack is not enough", 10_000, 42_048, RouteCompactThenTruncate},
		// where the two bounds meet: 1,024 tokens = 4,096 bytes, 1.5 × = 6,144 = 4,096 + 2,048
		{"at the crossover", 1_024, 6_144, RouteTruncateToolResultsOnly},
		{"odd overflow rounds 1.5 × up", 1_025, 6_150, RouteTruncateToolResultsOnly}, // 4,100 × 1.5 = 6,150
		{"odd overflow, one short", 1_025, 6_149, RouteCompactThenTruncate},
	}
	for _, c := range cases {
		if got := RouteFor(c.overflow, c.reducible); got != c.want {
			t.Errorf("%s: RouteFor(%d, %d) = %v, want %v", c.name, c.overflow, c.reducible, got, c.want)
		}
	}
}

func TestRouteNames(t *testing.T) {
	cases := []struct {
		r        Route
		name     string
		compacts bool
	}{
		{RouteFits, "fits", false},
		{RouteCompactOnly, "compact_only", true},
		{RouteTruncateToolResultsOnly, "truncate_tool_results_only", false},
		{RouteCompactThenTruncate, "compact_then_truncate", true},
		{Route(9), "unknown", false},
	}
	for _, c := range cases {
		if c.r.String() != c.name || c.r.Compacts() != c.compacts {
			t.Errorf("%d: %q compacts=%v, want %q %v", int(c.r), c.r, c.r.Compacts(), c.name, c.compacts)
		}
	}
}
