package runner

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gofrs/flock"

	"github.com/steer-tui/steer/persistence"
)

// stateDir is a state directory whose database holds sessions, closed so
// that a StateView opens it afresh.
func stateDir(t *testing.T, sessions ...persistence.Session) string {
	t.Helper()
	dir := t.TempDir()
	store, err := persistence.Open(dir, persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sessions {
		if err := store.CreateSession(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestOpenStateViewBesideAnOlderSteer: while a steer from before
// per-session ownership holds the directory's lock, the inspectors are
// refused with the store's own *LockedError and a listing opens read-only.
func TestOpenStateViewBesideAnOlderSteer(t *testing.T) {
	cases := []struct {
		name       string
		opts       StateViewOptions
		wantLocked bool
	}{
		{"inspectors are refused", StateViewOptions{}, true},
		{"a listing reads", StateViewOptions{ReadOnlyWhenLocked: true}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := stateDir(t, persistence.Session{ID: "s1", Workspace: "/w"})
			older := flock.New(filepath.Join(dir, "steer.lock"))
			if ok, err := older.TryLock(); !ok || err != nil {
				t.Fatal(ok, err)
			}
			defer older.Unlock()
			v, err := OpenStateView(dir, c.opts)
			var locked *persistence.LockedError
			if c.wantLocked {
				if !errors.As(err, &locked) {
					t.Fatalf("OpenStateView = %v, want *persistence.LockedError", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			got, err := v.Sessions(context.Background())
			if err != nil || len(got) != 1 || got[0].ID != "s1" {
				t.Fatalf("Sessions = %+v, %v; want s1", got, err)
			}
		})
	}
}

// TestStateViewTranscript: a saved session's transcript reads, an unknown
// id is ErrNoSavedSession.
func TestStateViewTranscript(t *testing.T) {
	v, err := OpenStateView(stateDir(t, persistence.Session{ID: "s1", Workspace: "/w"}), StateViewOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	cases := []struct {
		id      string
		wantErr error
	}{
		{"s1", nil},
		{"nope", ErrNoSavedSession},
	}
	for _, c := range cases {
		if _, err := v.Transcript(context.Background(), c.id); !errors.Is(err, c.wantErr) {
			t.Errorf("Transcript(%q) = %v, want %v", c.id, err, c.wantErr)
		}
	}
}

// TestStateViewProfileChoosers: each profile is named with the sessions
// that prefer it and those locked to it, most recently updated first.
func TestStateViewProfileChoosers(t *testing.T) {
	ctx := context.Background()
	dir := stateDir(t, persistence.Session{ID: "s1", Workspace: "/w"}, persistence.Session{ID: "s2", Workspace: "/w"},
		persistence.Session{ID: "s3", Workspace: "/w"})
	store, err := persistence.Open(dir, persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for id, c := range map[string]persistence.ProfileChoice{
		"s1": {Preferred: "p:a"},
		"s2": {Preferred: "p:a", Locked: "p:b"},
	} {
		if err := store.SetSessionProfiles(ctx, id, c); err != nil {
			t.Fatal(err)
		}
	}
	want, err := store.ProfileChoices(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	v, err := OpenStateView(dir, StateViewOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	got, err := v.ProfileChoosers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var preferredOrder []string
	for _, c := range want {
		preferredOrder = append(preferredOrder, c.SessionID)
	}
	wantChoosers := ProfileChoosers{
		PreferredBy: map[string][]string{"p:a": preferredOrder},
		LockedBy:    map[string][]string{"p:b": {"s2"}},
	}
	if !reflect.DeepEqual(got, wantChoosers) {
		t.Errorf("ProfileChoosers = %+v, want %+v", got, wantChoosers)
	}
}

// TestIsCorrupt: only a corrupt database, however wrapped, is one.
func TestIsCorrupt(t *testing.T) {
	corrupt := &persistence.CorruptError{Path: "steer.db", Err: errors.New("garbage")}
	cases := []struct {
		err  error
		want bool
	}{
		{corrupt, true},
		{fmt.Errorf("list sessions: %w", corrupt), true},
		{&persistence.NewerSchemaError{Path: "steer.db", Version: 9, Supported: 1}, false},
		{errors.New("disk I/O error"), false},
		{nil, false},
	}
	for _, c := range cases {
		if got := IsCorrupt(c.err); got != c.want {
			t.Errorf("IsCorrupt(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
