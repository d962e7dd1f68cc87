package persistence

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steer-tui/steer/persistence/persisttest"
)

// corruptPageDB builds a state directory whose sessions table holds many
// rows, closes it, and fills one page of that table with garbage: the page
// pick chooses (persisttest.RootPage for the table's root page, LeafPage for one
// of its data pages). The header and the schema stay sound, so Open
// succeeds; only a read or write of that page meets the garbage.
func corruptPageDB(t *testing.T, pick string) string {
	t.Helper()
	dir := t.TempDir()
	s, err := Open(dir, Options{Now: newClock().Now})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := range 300 {
		if err := s.CreateSession(ctx, Session{ID: fmt.Sprintf("s%03d", i), Workspace: "/work", Title: strings.Repeat("title ", 10)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	persisttest.CorruptPage(t, filepath.Join(dir, dbFileName), "sessions", pick)
	return dir
}

// TestCorruptPageGivesCorruptError: a database whose header and schema are
// sound but one of whose data pages is garbage opens, and its first read or
// write of that page says what Open says of a foreign file: corrupt, left
// untouched, move it aside — not SQLite's raw words.
func TestCorruptPageGivesCorruptError(t *testing.T) {
	cases := []struct {
		name string
		pick string
		op   func(context.Context, *Store) error
	}{
		{"list sessions, a data page", persisttest.LeafPage, func(ctx context.Context, s *Store) error {
			_, err := s.ListSessions(ctx, ListOptions{})
			return err
		}},
		{"read a session, the root page", persisttest.RootPage, func(ctx context.Context, s *Store) error {
			_, err := s.Session(ctx, "s000")
			return err
		}},
		{"create a session, the root page", persisttest.RootPage, func(ctx context.Context, s *Store) error {
			return s.CreateSession(ctx, Session{ID: "new", Workspace: "/work"})
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := corruptPageDB(t, c.pick)
			s, err := Open(dir, Options{})
			if err != nil {
				t.Fatalf("Open of a database with one bad data page: %v", err)
			}
			defer s.Close()
			err = c.op(context.Background(), s)
			var ce *CorruptError
			if !errors.As(err, &ce) || ce.Path != filepath.Join(dir, dbFileName) {
				t.Fatalf("error %v, want a *CorruptError", err)
			}
			if msg := err.Error(); !strings.Contains(msg, "left untouched — move it aside") || strings.Contains(msg, "\n") {
				t.Fatalf("message %q", msg)
			}
		})
	}
}
