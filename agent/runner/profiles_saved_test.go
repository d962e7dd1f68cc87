package runner

import (
	"context"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/persistence"
)

// choiceRuntime is a runtime on store with profiles p:a and p:b; closed
// when the test ends, or earlier by close.
func choiceRuntime(t *testing.T, store *persistence.Store, opts Options) (rt *Runtime, close func()) {
	t.Helper()
	never := func(string, string) *agent.ProviderError { return nil }
	opts.Providers = []Provider{{Name: "p", Models: []agent.Model{primary}, Stream: (&byProfile{fail: never}).stream,
		Profiles: []Profile{{ID: "p:a"}, {ID: "p:b"}}}}
	opts.Model, opts.Store, opts.Workspace, opts.Now, opts.Failover = "p/big", store, "/ws", time.Now, noCooldownWait
	rt, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	close = func() {
		if closed {
			return
		}
		closed = true
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		waitIdle(t, rt)
		if err := rt.Close(ctx); err != nil {
			t.Errorf("Close: %v", err)
		}
	}
	t.Cleanup(close)
	return rt, close
}

// savedSession runs one prompt so that rt's session has its row.
func savedSession(t *testing.T, rt *Runtime) string {
	t.Helper()
	if err := rt.Prompt(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	return rt.SessionID()
}

// TestProfileChoiceIsSaved: the choice of a session outlives the runtime
// that made it; reopened by id, the session is locked and prefers as
// before, with --profile filling in only a preferred profile it lacks, and
// a saved id no longer configured ignored.
func TestProfileChoiceIsSaved(t *testing.T) {
	cases := []struct {
		name                    string
		flag                    string // --profile of the first runtime
		before, after           func(rt *Runtime) error
		stored                  *persistence.ProfileChoice // written behind the runtimes' backs before reopening
		reopenFlag              string                     // --profile of the reopening one
		wantPreferred, wantLock string
		wantSaved               persistence.ProfileChoice // in the store once reopened
	}{
		{name: "a lock made before the first input", before: func(rt *Runtime) error { return rt.LockProfile(context.Background(), "p:b") },
			wantLock: "p:b", wantSaved: persistence.ProfileChoice{Locked: "p:b"}},
		{name: "a lock and a preference made after it", after: func(rt *Runtime) error {
			if err := rt.LockProfile(context.Background(), "p:b"); err != nil {
				return err
			}
			return rt.PreferProfile(context.Background(), "p:a")
		}, wantPreferred: "p:a", wantLock: "p:b", wantSaved: persistence.ProfileChoice{Preferred: "p:a", Locked: "p:b"}},
		{name: "unlocking is saved too", before: func(rt *Runtime) error { return rt.LockProfile(context.Background(), "p:b") },
			after: func(rt *Runtime) error { return rt.LockProfile(context.Background(), "") }},
		{name: "--profile of a new session is saved", flag: "p:b",
			wantPreferred: "p:b", wantSaved: persistence.ProfileChoice{Preferred: "p:b"}},
		{name: "--profile fills in a preferred profile the session lacks", reopenFlag: "p:a",
			after:         func(rt *Runtime) error { return rt.LockProfile(context.Background(), "p:b") },
			wantPreferred: "p:a", wantLock: "p:b", wantSaved: persistence.ProfileChoice{Preferred: "p:a", Locked: "p:b"}},
		{name: "the session's own preferred profile beats --profile", reopenFlag: "p:a",
			after:         func(rt *Runtime) error { return rt.PreferProfile(context.Background(), "p:b") },
			wantPreferred: "p:b", wantSaved: persistence.ProfileChoice{Preferred: "p:b"}},
		{name: "a profile no longer configured is ignored and kept", stored: &persistence.ProfileChoice{Preferred: "p:a", Locked: "p:gone"},
			wantPreferred: "p:a", wantSaved: persistence.ProfileChoice{Preferred: "p:a", Locked: "p:gone"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			store := storeFor(t, t.TempDir())
			rt, closeFirst := choiceRuntime(t, store, Options{Profile: c.flag})
			if c.before != nil {
				if err := c.before(rt); err != nil {
					t.Fatal(err)
				}
			}
			id := savedSession(t, rt)
			if c.after != nil {
				if err := c.after(rt); err != nil {
					t.Fatal(err)
				}
			}
			closeFirst()
			if c.stored != nil {
				if err := store.SetSessionProfiles(ctx, id, *c.stored); err != nil {
					t.Fatal(err)
				}
			}

			reopened, _ := choiceRuntime(t, store, Options{Session: id, Profile: c.reopenFlag})
			if preferred, locked := reopened.ProfileChoice(); preferred != c.wantPreferred || locked != c.wantLock {
				t.Errorf("reopened choice = %q, %q; want %q, %q", preferred, locked, c.wantPreferred, c.wantLock)
			}
			if saved, err := store.SessionProfiles(ctx, id); err != nil || saved != c.wantSaved {
				t.Errorf("saved choice = %+v, %v; want %+v", saved, err, c.wantSaved)
			}
		})
	}
}

// TestProfileChoiceFollowsTheSession: switching sessions takes the choice
// of the one switched to, and a new session starts from --profile alone.
func TestProfileChoiceFollowsTheSession(t *testing.T) {
	ctx := context.Background()
	store := storeFor(t, t.TempDir())
	rt, _ := choiceRuntime(t, store, Options{Profile: "p:a"})
	locked := savedSession(t, rt)
	if err := rt.LockProfile(context.Background(), "p:b"); err != nil {
		t.Fatal(err)
	}
	if err := rt.NewSession(context.Background()); err != nil {
		t.Fatal(err)
	}
	if preferred, lock := rt.ProfileChoice(); preferred != "p:a" || lock != "" {
		t.Errorf("new session's choice = %q, %q; want --profile's p:a and no lock", preferred, lock)
	}
	savedSession(t, rt)
	if err := rt.SwitchSession(ctx, locked); err != nil {
		t.Fatal(err)
	}
	if preferred, lock := rt.ProfileChoice(); preferred != "p:a" || lock != "p:b" {
		t.Errorf("switched-to session's choice = %q, %q; want p:a, locked to p:b", preferred, lock)
	}
	views, err := rt.Profiles(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(views) != 2 || len(views[0].LockedBy) != 0 || len(views[1].LockedBy) != 1 || views[1].LockedBy[0] != locked ||
		len(views[0].PreferredBy) != 1 || views[0].PreferredBy[0] != locked {
		t.Errorf("views = %+v, want p:a preferred and p:b locked by %s", views, locked)
	}
}
