package persistence

import (
	"context"
	"database/sql"
	"errors"
	"reflect"
	"testing"
)

// TestSessionProfiles: each write replaces the session's choice, is read
// back by SessionProfiles, leaves the other sessions' alone and does not
// move the session in the list.
func TestSessionProfiles(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	for i, id := range []string{"a", "b"} {
		if err := s.CreateSession(ctx, Session{ID: id, Workspace: "/w", Created: at(i)}); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name   string
		id     string
		set    ProfileChoice
		wantA  ProfileChoice
		wantB  ProfileChoice
		errIs  error
		listed []SessionProfileChoice // ProfileChoices after the write
	}{
		{name: "nothing chosen yet", id: "a", set: ProfileChoice{}, listed: nil},
		{name: "a prefers", id: "a", set: ProfileChoice{Preferred: "p:x"},
			wantA: ProfileChoice{Preferred: "p:x"}, listed: []SessionProfileChoice{{"a", ProfileChoice{Preferred: "p:x"}}}},
		{name: "b locks", id: "b", set: ProfileChoice{Locked: "p:y"},
			wantA: ProfileChoice{Preferred: "p:x"}, wantB: ProfileChoice{Locked: "p:y"},
			listed: []SessionProfileChoice{{"b", ProfileChoice{Locked: "p:y"}}, {"a", ProfileChoice{Preferred: "p:x"}}}},
		{name: "a replaces its choice", id: "a", set: ProfileChoice{Preferred: "p:y", Locked: "p:x"},
			wantA: ProfileChoice{Preferred: "p:y", Locked: "p:x"}, wantB: ProfileChoice{Locked: "p:y"},
			listed: []SessionProfileChoice{{"b", ProfileChoice{Locked: "p:y"}}, {"a", ProfileChoice{Preferred: "p:y", Locked: "p:x"}}}},
		{name: "b unlocks and leaves the list", id: "b", set: ProfileChoice{},
			wantA:  ProfileChoice{Preferred: "p:y", Locked: "p:x"},
			listed: []SessionProfileChoice{{"a", ProfileChoice{Preferred: "p:y", Locked: "p:x"}}}},
		{name: "an unknown session", id: "nope", set: ProfileChoice{Locked: "p:x"}, errIs: ErrNotFound,
			wantA:  ProfileChoice{Preferred: "p:y", Locked: "p:x"},
			listed: []SessionProfileChoice{{"a", ProfileChoice{Preferred: "p:y", Locked: "p:x"}}}},
	}
	for _, c := range cases { // in order: each case starts where the last ended
		t.Run(c.name, func(t *testing.T) {
			if err := s.SetSessionProfiles(ctx, c.id, c.set); !errors.Is(err, c.errIs) {
				t.Fatalf("SetSessionProfiles(%s) = %v, want %v", c.id, err, c.errIs)
			}
			for id, want := range map[string]ProfileChoice{"a": c.wantA, "b": c.wantB} {
				if got, err := s.SessionProfiles(ctx, id); err != nil || got != want {
					t.Errorf("SessionProfiles(%s) = %+v, %v; want %+v", id, got, err, want)
				}
			}
			if got, err := s.ProfileChoices(ctx); err != nil || !reflect.DeepEqual(got, c.listed) {
				t.Errorf("ProfileChoices = %+v, %v; want %+v", got, err, c.listed)
			}
		})
	}
	if _, err := s.SessionProfiles(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("SessionProfiles(nope) = %v, want ErrNotFound", err)
	}
	if latest, err := s.LatestSession(ctx, "/w"); err != nil || latest.ID != "b" {
		t.Errorf("LatestSession = %s, %v; want b (a choice is no activity)", latest.ID, err)
	}
}

// TestSessionProfilesAfterUpgrade: sessions saved before migration 0010
// read as having chosen nothing, and can choose.
func TestSessionProfilesAfterUpgrade(t *testing.T) {
	dir := t.TempDir()
	path := buildAtVersion(t, dir, 9)
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
	ctx := context.Background()
	s := openStore(t, dir)
	if got, err := s.SessionProfiles(ctx, "old"); err != nil || got != (ProfileChoice{}) {
		t.Errorf("SessionProfiles(old) = %+v, %v; want no choice", got, err)
	}
	if got, err := s.ProfileChoices(ctx); err != nil || len(got) != 0 {
		t.Errorf("ProfileChoices = %+v, %v; want none", got, err)
	}
	if err := s.SetSessionProfiles(ctx, "old", ProfileChoice{Locked: "p:x"}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.SessionProfiles(ctx, "old"); err != nil || got.Locked != "p:x" {
		t.Errorf("SessionProfiles(old) = %+v, %v; want locked to p:x", got, err)
	}
}
