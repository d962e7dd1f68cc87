package persistence

import (
	"context"
	"errors"
	"testing"
)

// TestDeleteSession: a deleted session is gone from the list, its
// transcript and the search index; the others stay; a session open here,
// or one that does not exist, is refused.
func TestDeleteSession(t *testing.T) {
	s := searchFixture(t, 4) // s0002 holds the needle
	ctx := context.Background()
	for _, id := range []string{"s0000", "s0001", "s0002", "s0003"} {
		if err := s.claimed(id).Release(ctx); err != nil { // as a process that created them and let them go
			t.Fatal(err)
		}
	}
	if err := s.DeleteSession(ctx, "s0002"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Session(ctx, "s0002"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the deleted session is still there: %v", err)
	}
	if hits, err := s.SearchSessions(ctx, "zanzibarite", "", 10); err != nil || len(hits) != 0 {
		t.Fatalf("the index still finds the deleted session: %+v, %v", hits, err)
	}
	var rows int
	if err := s.reader.QueryRowContext(ctx, `SELECT count(*) FROM transcript_entries WHERE session_id = 's0002'`).Scan(&rows); err != nil || rows != 0 {
		t.Fatalf("%d transcript rows left, %v", rows, err)
	}
	if list, err := s.ListSessions(ctx, ListOptions{}); err != nil || len(list) != 3 {
		t.Fatalf("%d sessions left, %v; want 3", len(list), err)
	}
	c, err := s.ClaimSession(ctx, "s0001")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release(ctx)
	if err := s.DeleteSession(ctx, "s0001"); !errors.Is(err, ErrOpenHere) {
		t.Fatalf("deleting a session open here: %v, want ErrOpenHere", err)
	}
	if err := s.DeleteSession(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleting a missing session: %v, want ErrNotFound", err)
	}
}
