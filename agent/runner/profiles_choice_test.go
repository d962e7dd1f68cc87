package runner

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/failover"
)

// TestProfileChoice runs one prompt on profiles p:a and p:b with the
// session's choice: the attempts it makes and how it ends.
func TestProfileChoice(t *testing.T) {
	rateLimited := &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 429, Type: "rate_limit_error", Message: "Rate limit reached"}
	failA := func(profile, _ string) *agent.ProviderError {
		if profile == "p:a" {
			return rateLimited
		}
		return nil
	}
	never := func(string, string) *agent.ProviderError { return nil }
	coolingB := func(now time.Time) map[string]failover.ProfileState {
		return map[string]failover.ProfileState{"p:b": failed429(now, "big", failover.Hint{})(failover.ProfileState{})}
	}
	cases := []struct {
		name              string
		option            string // Options.Profile (--profile)
		preferred, locked string
		seed              func(now time.Time) map[string]failover.ProfileState
		fail              func(profile, model string) *agent.ProviderError
		attempts          []string
		answer, errorHas  string
	}{
		{name: "no choice: the configured order", fail: never, attempts: []string{"p:a"}, answer: "ok from p:a"},
		{name: "--profile prefers", option: "p:b", fail: never, attempts: []string{"p:b"}, answer: "ok from p:b"},
		{name: "preferred goes first", preferred: "p:b", fail: never, attempts: []string{"p:b"}, answer: "ok from p:b"},
		{name: "a preferred profile cooling down waits behind the others", preferred: "p:b", seed: coolingB, fail: never,
			attempts: []string{"p:a"}, answer: "ok from p:a"},
		{name: "without a lock a failure rotates", fail: failA, attempts: []string{"p:a", "p:b"}, answer: "ok from p:b"},
		{name: "locked: no rotation, and the error names the lock", locked: "p:a", fail: failA,
			attempts: []string{"p:a"}, errorHas: "the session is locked to auth profile p:a (/profiles → l unlocks it)"},
		{name: "locked beats preferred", locked: "p:b", preferred: "p:a", fail: never, attempts: []string{"p:b"}, answer: "ok from p:b"},
		{name: "locked and cooling down: no attempt at all", locked: "p:b", seed: coolingB, fail: never,
			errorHas: "p:b cools down for rate_limit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ledger := &failover.MemLedger{}
			if c.seed != nil {
				for id, st := range c.seed(time.Now()) {
					_, _ = ledger.Update(context.Background(), id, func(failover.ProfileState) failover.ProfileState { return st })
				}
			}
			p := &byProfile{fail: c.fail}
			rt, err := New(context.Background(), Options{
				Providers: []Provider{{Name: "p", Models: []agent.Model{primary}, Stream: p.stream,
					Profiles: []Profile{{ID: "p:a"}, {ID: "p:b"}}}},
				Model: "p/big", Ledger: ledger, Now: time.Now, Failover: noCooldownWait, Profile: c.option,
			})
			if err != nil {
				t.Fatal(err)
			}
			if c.preferred != "" {
				if err := rt.PreferProfile(context.Background(), c.preferred); err != nil {
					t.Fatal(err)
				}
			}
			if err := rt.LockProfile(context.Background(), c.locked); err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			var attempts []string
			rt.Subscribe(func(ev agent.Event) {
				if a, ok := ev.(agent.Annotation); ok && a.Kind == AnnotationAttemptStart {
					mu.Lock()
					attempts = append(attempts, a.Data.(AttemptInfo).Profile)
					mu.Unlock()
				}
			})
			if err := rt.Prompt(context.Background(), "hi"); err != nil {
				t.Fatal(err)
			}
			waitIdle(t, rt)
			msgs := rt.State().Messages
			last := msgs[len(msgs)-1]
			mu.Lock()
			defer mu.Unlock()
			if strings.Join(attempts, " ") != strings.Join(c.attempts, " ") {
				t.Errorf("attempts = %v, want %v", attempts, c.attempts)
			}
			if got := last.TextContent(); got != c.answer {
				t.Errorf("answer = %q, want %q", got, c.answer)
			}
			if !strings.Contains(last.ErrorMessage, c.errorHas) {
				t.Errorf("error = %q, want it to contain %q", last.ErrorMessage, c.errorHas)
			}
		})
	}
}

func TestProfileChoiceRefusesUnknownProfiles(t *testing.T) {
	opts := Options{
		Providers: []Provider{{Name: "p", Models: []agent.Model{primary}, Stream: (&byProfile{}).stream,
			Profiles: []Profile{{ID: "p:a"}, {ID: "p:b"}}}},
		Model: "p/big", Profile: "p:nope",
	}
	_, err := New(context.Background(), opts)
	var unknown *UnknownProfileError
	if !errors.As(err, &unknown) || err.Error() != `no auth profile "p:nope" is configured (configured: p:a, p:b)` {
		t.Fatalf("New with --profile p:nope: %v", err)
	}
	opts.Profile = ""
	rt, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := rt.PreferProfile(context.Background(), "x"); !errors.As(err, &unknown) {
		t.Errorf("PreferProfile(x) = %v, want an UnknownProfileError", err)
	}
	if err := rt.LockProfile(context.Background(), "x"); !errors.As(err, &unknown) {
		t.Errorf("LockProfile(x) = %v, want an UnknownProfileError", err)
	}
	if err := rt.PreferProfile(context.Background(), "p:b"); err != nil {
		t.Fatal(err)
	}
	if err := rt.LockProfile(context.Background(), "p:a"); err != nil {
		t.Fatal(err)
	}
	views, err := rt.Profiles(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(views) != 2 || !views[0].Locked || views[0].Preferred || !views[1].Preferred || views[1].Locked {
		t.Errorf("views = %+v, want p:a locked and p:b preferred", views)
	}
}
