package contextguard

import "testing"

func TestToolResultLimit(t *testing.T) {
	cases := []struct {
		window int
		want   int
	}{
		{-1, 16_000},        // unknown: the smallest tier
		{0, 16_000},         // unknown
		{1_000, 500},        // 30 % of the window, measured as the guard measures
		{8_192, 4_095},      // the offline 8k model
		{16_000, 8_000},     // the share still bites
		{32_000, 16_000},    // the share reaches the tier
		{99_999, 16_000},    // below 100k
		{100_000, 32_000},   // from 100k
		{199_999, 32_000},   // below 200k
		{200_000, 64_000},   // from 200k
		{1_000_000, 64_000}, // no higher tier
	}
	for _, c := range cases {
		if got := ToolResultLimit(c.window); got != c.want {
			t.Errorf("ToolResultLimit(%d) = %d, want %d", c.window, got, c.want)
		}
		// a result at its limit never measures more than 30 % of the window
		if c.window > 0 {
			m := toolResultOf(string(make([]byte, ToolResultLimit(c.window))))
			if body := EstimateMessage(m) - EstimateMessage(toolResultOf("")); body*100 > c.window*maxResultSharePercent {
				t.Errorf("window %d: a result at the limit measures %d tokens", c.window, body)
			}
		}
	}
}
