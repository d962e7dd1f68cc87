package inspector

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/runner"
)

// TestContextTable: a row per part in the request's order, a tool result
// within its turn indented, shares of the window, and a total row last
// whose tone is the guard's route; with no window the shares are dashes.
func TestContextTable(t *testing.T) {
	v := runner.ContextBreakdown{Window: 1000, Budget: 800, Route: runner.MeterTruncate, Total: 600, Parts: []runner.ContextPart{
		{Label: "system prompt", Kind: runner.PartSystem, Tokens: 100, Share: 0.1},
		{Label: "turn 1 (3 messages)", Kind: runner.PartMessages, Tokens: 500, Share: 0.5},
		{Label: "tool result read c1 (turn 1)", Kind: runner.PartToolResult, Tokens: 450, Share: 0.45, Within: true},
	}}
	for _, tc := range []struct {
		name string
		v    runner.ContextBreakdown
		want [][3]string
		tone Tone
	}{
		{"window known", v, [][3]string{{"system prompt", "100", "10.0%"}, {"turn 1 (3 messages)", "500", "50.0%"},
			{"  ↳ tool result read c1 (turn 1)", "450", "45.0%"}, {"total", "600", "60.0%"}}, ToneWarn},
		{"window unknown", runner.ContextBreakdown{Route: runner.MeterFits, Total: 100, Parts: v.Parts[:1]},
			[][3]string{{"system prompt", "100", "-"}, {"total", "100", "-"}}, ToneNone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab := contextTable(tc.v)
			if len(tab.Rows) != len(tc.want) {
				t.Fatalf("%d rows, want %d: %+v", len(tab.Rows), len(tc.want), tab.Rows)
			}
			for i, w := range tc.want {
				c := tab.Rows[i].Cells
				if got := [3]string{c[0].Text, c[1].Text, c[2].Text}; got != w {
					t.Errorf("row %d = %q, want %q", i, got, w)
				}
			}
			if tone := tab.Rows[len(tab.Rows)-1].Cells[2].Tone; tone != tc.tone {
				t.Errorf("total's tone %v, want %v", tone, tc.tone)
			}
			var b bytes.Buffer
			printContext(&b, tc.v, time.Time{})
			if lines := strings.Split(strings.TrimSpace(b.String()), "\n"); !strings.HasPrefix(strings.TrimSpace(lines[len(tc.want)]), "total") {
				t.Errorf("the printed breakdown does not end with its total:\n%s", b.String())
			}
		})
	}
}
