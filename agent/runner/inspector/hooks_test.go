package inspector

import (
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/runner"
)

// TestHooksTable: each hook is a row in configuration order; a failed
// last run is marked bad and its details say when it ran; one that has
// not run shows a dash.
func TestHooksTable(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	v := []runner.HookView{
		{Name: "PreToolUse[0]", Event: "PreToolUse", Matcher: "Bash", Command: "./check.sh", Timeout: 2 * time.Second,
			Source: "/cfg/config.json", Last: "timed out after 2s: killed", LastAt: now.Add(-5 * time.Second), Problem: true},
		{Name: "PostToolUse[0]", Event: "PostToolUse", Command: "./log.sh", Timeout: time.Minute, Source: "/cfg/config.json"},
	}
	tab := hooksTable(v, now)
	for _, c := range []struct {
		row                 int
		name, matcher, last string
		tone                Tone
		detail              string
	}{
		{0, "PreToolUse[0]", "Bash", "timed out after 2s: killed", ToneBad, "last ran 5s ago: timed out after 2s: killed"},
		{1, "PostToolUse[0]", "-", "-", ToneNone, "PostToolUse hook from /cfg/config.json: ./log.sh"},
	} {
		r := tab.Rows[c.row]
		if r.Cells[0].Text != c.name || r.Cells[1].Text != c.matcher || r.Cells[5] != (Cell{Text: c.last, Tone: c.tone}) {
			t.Errorf("row %d = %+v", c.row, r.Cells)
		}
		if d := strings.Join(r.Detail, "\n"); !strings.Contains(d, c.detail) {
			t.Errorf("row %d detail %q, want %q", c.row, d, c.detail)
		}
	}
	if len(hooksTable(nil, now).Rows) != 0 || hooksTable(nil, now).Empty == "" {
		t.Error("no hooks: want no rows and the empty text")
	}
}
