package inspect

import (
	"strings"
	"testing"
	"time"
)

// TestEnginesTable: the built-in engine answers while the selected one is
// quarantined; the quarantine says which method failed, why, since when
// and how often; a quarantine of an engine no longer configured stays
// listed, and both can be cleared.
func TestEnginesTable(t *testing.T) {
	table := enginesTable(crashed(), epoch.Add(5*time.Second))
	want := [][]string{
		{"legacy", "builtin", "active"},
		{"crashy", "external", "selected, quarantined", "assemble", "crash", "5s ago", "2"},
		{"old", "gone", "quarantined", "ingest", "timeout", "1h ago", "1"},
	}
	if len(table.Rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(table.Rows), len(want))
	}
	for i, w := range want {
		if got := cells(table.Rows[i]); strings.Join(got, "|") != strings.Join(w, "|") {
			t.Errorf("row %d:\n got %q\nwant %q", i, got, w)
		}
	}
	if got := []string{table.Rows[0].Target, table.Rows[1].Target, table.Rows[2].Target}; strings.Join(got, ",") != ",crashy,old" {
		t.Errorf("clearable rows %q", got)
	}
	detail := strings.Join(table.Rows[1].Detail, "\n")
	for _, s := range []string{"command: sh -c exit 3", "assemble failed (crash), 2 times", "the engine exited: exit status 3"} {
		if !strings.Contains(detail, s) {
			t.Errorf("crashy's details lack %q:\n%s", s, detail)
		}
	}
	if table.Summary != "active: legacy · crashy is quarantined, the built-in engine answers for it" {
		t.Errorf("summary %q", table.Summary)
	}
}
