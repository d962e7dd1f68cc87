package persistence

import (
	"context"
	"errors"
	"testing"
)

// TestSessionName: a name is kept beside the title, listed, found by the
// search, removed by an empty name, and refused for a session that does
// not exist.
func TestSessionName(t *testing.T) {
	s := searchFixture(t, 4)
	ctx := context.Background()
	if err := s.SetSessionName(ctx, "s0001", "release notes for v2"); err != nil {
		t.Fatal(err)
	}
	got, err := s.Session(ctx, "s0001")
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "release notes for v2" || got.Title != "session number 1" {
		t.Fatalf("name %q title %q, want the name beside the title", got.Name, got.Title)
	}
	hits, err := s.SearchSessions(ctx, "release notes", "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].SessionID != "s0001" || hits[0].Title != "release notes for v2" {
		t.Fatalf("search by name: %+v", hits)
	}
	if err := s.SetSessionName(ctx, "s0001", ""); err != nil {
		t.Fatal(err)
	}
	if hits, _ := s.SearchSessions(ctx, "release notes", "", 10); len(hits) != 0 {
		t.Fatalf("a removed name is still found: %+v", hits)
	}
	if err := s.SetSessionName(ctx, "nope", "x"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("naming a missing session: %v, want ErrNotFound", err)
	}
}
