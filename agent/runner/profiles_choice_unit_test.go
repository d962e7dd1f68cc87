package runner

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/persistence"
)

// choiceSaves is a profileChoice over profiles p:a and p:b whose saves are
// recorded (and fail with fail, when set).
type choiceSaves struct {
	saves []persistence.ProfileChoice
	fail  error
}

func (s *choiceSaves) choice(t *testing.T, flag string) *profileChoice {
	t.Helper()
	known := catalogFor(nil, Provider{Name: "p", Models: []agent.Model{{Provider: "p", ID: "m"}}, Profiles: []Profile{{ID: "p:a"}, {ID: "p:b"}}})
	c, err := newProfileChoice(flag, known, func(_ context.Context, pc persistence.ProfileChoice) error {
		s.saves = append(s.saves, pc)
		return s.fail
	}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestProfileChoiceChanges: each change is checked, applied and saved in
// the order made; a failed save keeps the change and says so.
func TestProfileChoiceChanges(t *testing.T) {
	saveFailed := errors.New("disk full")
	cases := []struct {
		name                    string
		flag                    string
		fail                    error
		change                  func(c *profileChoice) error
		wantErr                 bool
		wantPreferred, wantLock string
		wantSaves               []persistence.ProfileChoice
	}{
		{name: "the flag is the first preference, unsaved until the row", flag: "p:b",
			change: func(*profileChoice) error { return nil }, wantPreferred: "p:b"},
		{name: "prefer", change: func(c *profileChoice) error { return c.prefer(context.Background(), "p:a") },
			wantPreferred: "p:a", wantSaves: []persistence.ProfileChoice{{Preferred: "p:a"}}},
		{name: "lock keeps the preference", flag: "p:b", change: func(c *profileChoice) error { return c.lock(context.Background(), "p:a") },
			wantPreferred: "p:b", wantLock: "p:a", wantSaves: []persistence.ProfileChoice{{Preferred: "p:b", Locked: "p:a"}}},
		{name: "unlock", change: func(c *profileChoice) error {
			if err := c.lock(context.Background(), "p:a"); err != nil {
				return err
			}
			return c.lock(context.Background(), "")
		}, wantSaves: []persistence.ProfileChoice{{Locked: "p:a"}, {}}},
		{name: "an unknown profile changes nothing", flag: "p:a", change: func(c *profileChoice) error { return c.lock(context.Background(), "p:z") },
			wantErr: true, wantPreferred: "p:a"},
		{name: "a failed save keeps the change", fail: saveFailed, change: func(c *profileChoice) error { return c.prefer(context.Background(), "p:b") },
			wantErr: true, wantPreferred: "p:b", wantSaves: []persistence.ProfileChoice{{Preferred: "p:b"}}},
		{name: "reset goes back to the flag", flag: "p:a", change: func(c *profileChoice) error {
			if err := c.lock(context.Background(), "p:b"); err != nil {
				return err
			}
			c.reset()
			return nil
		}, wantPreferred: "p:a", wantSaves: []persistence.ProfileChoice{{Preferred: "p:a", Locked: "p:b"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := &choiceSaves{fail: tc.fail}
			c := s.choice(t, tc.flag)
			if err := tc.change(c); (err != nil) != tc.wantErr {
				t.Fatalf("change = %v, want an error %v", err, tc.wantErr)
			}
			if p, l := c.get(); p != tc.wantPreferred || l != tc.wantLock {
				t.Errorf("choice = %q, %q; want %q, %q", p, l, tc.wantPreferred, tc.wantLock)
			}
			if !slices.Equal(s.saves, tc.wantSaves) {
				t.Errorf("saves = %v, want %v", s.saves, tc.wantSaves)
			}
		})
	}
	known := catalogFor(nil, Provider{Name: "p", Profiles: []Profile{{ID: "p:a"}}})
	if _, err := newProfileChoice("p:z", known, nil, slog.New(slog.DiscardHandler)); err == nil {
		t.Error("an unknown --profile was taken")
	}
}

// TestProfileChoiceAdoptsTheSavedOne: a session's saved choice becomes the
// current one, without the ids no longer configured; a session that
// prefers none takes the flag's and saves it, its lock kept as saved.
func TestProfileChoiceAdoptsTheSavedOne(t *testing.T) {
	cases := []struct {
		name                    string
		flag                    string
		saved                   persistence.ProfileChoice
		wantPreferred, wantLock string
		wantSaves               []persistence.ProfileChoice
	}{
		{name: "as saved", saved: persistence.ProfileChoice{Preferred: "p:a", Locked: "p:b"}, wantPreferred: "p:a", wantLock: "p:b"},
		{name: "the saved preference beats the flag", flag: "p:b", saved: persistence.ProfileChoice{Preferred: "p:a"}, wantPreferred: "p:a"},
		{name: "unknown ids are ignored", saved: persistence.ProfileChoice{Preferred: "p:gone", Locked: "p:gone"}},
		{name: "no preference takes the flag's, saved", flag: "p:b", saved: persistence.ProfileChoice{Locked: "p:gone"},
			wantPreferred: "p:b", wantSaves: []persistence.ProfileChoice{{Preferred: "p:b", Locked: "p:gone"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := &choiceSaves{}
			c := s.choice(t, tc.flag)
			c.adoptSaved(context.Background(), "s1", tc.saved)
			if p, l := c.get(); p != tc.wantPreferred || l != tc.wantLock {
				t.Errorf("choice = %q, %q; want %q, %q", p, l, tc.wantPreferred, tc.wantLock)
			}
			if !slices.Equal(s.saves, tc.wantSaves) {
				t.Errorf("saves = %v, want %v", s.saves, tc.wantSaves)
			}
		})
	}
}

func TestProfileChoiceLockNote(t *testing.T) {
	c := (&choiceSaves{}).choice(t, "")
	if got := c.lockNote("every auth profile of p is unavailable"); got != "every auth profile of p is unavailable" {
		t.Errorf("unlocked: %q", got)
	}
	if err := c.lock(context.Background(), "p:a"); err != nil {
		t.Fatal(err)
	}
	want := "every auth profile of p is unavailable — the session is locked to auth profile p:a (/profiles → l unlocks it)"
	if got := c.lockNote("every auth profile of p is unavailable"); got != want {
		t.Errorf("locked: %q, want %q", got, want)
	}
}
