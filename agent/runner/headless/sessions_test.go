package headless

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/persistence"
)

// TestListSessionsShowsParents: `steer sessions` lists sub-agents' sessions
// with the others, naming their parent in the table and as parentId in JSON
// ("" for a top-level session).
func TestListSessionsShowsParents(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	store, err := persistence.Open(dir, persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantParent := map[string]string{"top-1": "", "child-1": "top-1"}
	for _, ss := range []persistence.Session{
		{ID: "top-1", Workspace: "/w"},
		{ID: "child-1", Workspace: "/w", ParentID: "top-1"},
	} {
		if err := store.CreateSession(ctx, ss); err != nil {
			t.Fatal(err)
		}
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	view, err := runner.OpenStateView(dir, runner.StateViewOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer view.Close()

	t.Run("json", func(t *testing.T) {
		var out, errb strings.Builder
		if code := ListSessions(ctx, view, true, &out, &errb); code != ExitOK {
			t.Fatalf("exit %d, stderr %q", code, errb.String())
		}
		var got []map[string]any
		if err := json.Unmarshal([]byte(out.String()), &got); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(wantParent) {
			t.Fatalf("listed %d sessions, want %d:\n%s", len(got), len(wantParent), out.String())
		}
		for _, s := range got {
			id, _ := s["id"].(string)
			if parent, ok := s["parentId"].(string); !ok || parent != wantParent[id] {
				t.Errorf("%s: parentId %#v, want %q", id, s["parentId"], wantParent[id])
			}
		}
	})

	t.Run("table", func(t *testing.T) {
		var out, errb strings.Builder
		if code := ListSessions(ctx, view, false, &out, &errb); code != ExitOK {
			t.Fatalf("exit %d, stderr %q", code, errb.String())
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if head := strings.Fields(lines[0]); len(head) < 2 || head[1] != "PARENT" {
			t.Fatalf("header %q has no PARENT column second", lines[0])
		}
		wantRow := map[string]string{"top-1": "-", "child-1": "top-1"}
		for _, line := range lines[1:] {
			f := strings.Fields(line)
			if want, ok := wantRow[f[0]]; !ok || f[1] != want {
				t.Errorf("row %q: parent column %q, want %q", line, f[1], want)
			}
			delete(wantRow, f[0])
		}
		if len(wantRow) != 0 {
			t.Errorf("sessions missing from the table: %v\n%s", wantRow, out.String())
		}
	})
}
