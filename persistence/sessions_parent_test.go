package persistence

import (
	"context"
	"database/sql"
	"testing"
)

// TestSessionParent: a sub-agent's session keeps its parent's id through
// every read, and children are listed with the other sessions.
func TestSessionParent(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	for _, ss := range []Session{
		{ID: "top", Workspace: "/w", Created: at(-3)},
		{ID: "child", Workspace: "/w", ParentID: "top", Created: at(-2)},
		{ID: "grandchild", Workspace: "/w", ParentID: "child", Created: at(-1)},
	} {
		if err := s.CreateSession(ctx, ss); err != nil {
			t.Fatal(err)
		}
	}
	wantParent := map[string]string{"top": "", "child": "top", "grandchild": "child"}

	for id, want := range wantParent {
		t.Run("Session "+id, func(t *testing.T) {
			got, err := s.Session(ctx, id)
			if err != nil || got.ParentID != want {
				t.Errorf("Session(%s).ParentID = %q, %v; want %q", id, got.ParentID, err, want)
			}
		})
	}
	t.Run("ListSessions", func(t *testing.T) {
		list, err := s.ListSessions(ctx, ListOptions{Workspace: "/w"})
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != len(wantParent) {
			t.Fatalf("listed %d sessions, want %d: %+v", len(list), len(wantParent), list)
		}
		for _, ss := range list {
			if want, ok := wantParent[ss.ID]; !ok || ss.ParentID != want {
				t.Errorf("listed %s with parent %q, want %q", ss.ID, ss.ParentID, want)
			}
		}
	})
	t.Run("LatestSession", func(t *testing.T) {
		latest, err := s.LatestSession(ctx, "/w")
		if err != nil || latest.ID != "grandchild" || latest.ParentID != "child" {
			t.Errorf("LatestSession = %s (parent %q), %v; want grandchild (parent child)", latest.ID, latest.ParentID, err)
		}
	})
}

// TestSessionParentAfterUpgrade: sessions saved before migration 0008 read
// as top-level ones.
func TestSessionParentAfterUpgrade(t *testing.T) {
	dir := t.TempDir()
	path := buildAtVersion(t, dir, 7)
	db, err := sql.Open(driverName, writerDSN(path))
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`INSERT INTO sessions (id, workspace, created_at, updated_at) VALUES ('old', '/w', 1, 1)`)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	got, err := openStore(t, dir).Session(context.Background(), "old")
	if err != nil || got.ID != "old" || got.ParentID != "" {
		t.Errorf("Session(old) = %+v, %v; want a top-level session", got, err)
	}
}
