package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/runner/headless"
	"github.com/steer-tui/steer/agent/runner/steerbin"
	"github.com/steer-tui/steer/failover"
	"github.com/steer-tui/steer/persistence"
)

// TestInspectProfilesShowsTheSharedLedger: a cooldown another steer wrote
// into the state directory's ledger shows in `steer inspect profiles
// --json`, with no key set, as the judge's fields.
func TestInspectProfilesShowsTheSharedLedger(t *testing.T) {
	s := newSandbox(t)
	store, err := persistence.Open(s.stateDir, persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	_, err = store.Ledger().Update(context.Background(), "openai:main", func(st failover.ProfileState) failover.ProfileState {
		return st.RecordFailure(failover.Failure{At: now, Reason: failover.ReasonRateLimit, Model: "gpt-4.1", ProviderReached: true}, failover.Cooldowns{})
	})
	store.Close()
	if err != nil {
		t.Fatal(err)
	}
	cfg := writeFile(t, "config.json", steerbin.READMEConfig(t))
	code, stdout, stderr := s.run(nil, "--config", cfg, "inspect", "profiles", "--json")
	if code != headless.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var profiles []struct {
		ID, Provider, State, Model string
		Until                      *time.Time
		Reason                     *string
		ErrorCount                 int
	}
	if err := json.Unmarshal([]byte(stdout), &profiles); err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	byID := map[string]int{}
	for i, p := range profiles {
		byID[p.ID] = i
	}
	a, ok := byID["openai:main"]
	if !ok || len(profiles) != 6 {
		t.Fatalf("profiles %+v, want the README's five and the built-in scripted one", profiles)
	}
	p := profiles[a]
	if p.State != "cooldown" || p.Reason == nil || *p.Reason != "rate_limit" || p.Model != "gpt-4.1" || p.ErrorCount != 1 ||
		p.Until == nil || p.Until.Sub(now) < 25*time.Second || p.Until.Sub(now) > 35*time.Second {
		t.Fatalf("openai:main = %+v, want a ~30 s rate_limit cooldown on gpt-4.1", p)
	}
	if other := profiles[byID["anthropic:main"]]; other.State != "available" || other.Until != nil || other.Reason != nil {
		t.Fatalf("anthropic:main = %+v, want available", other)
	}
}

// TestInspectProfilesClear: `steer inspect profiles --clear ID` ends a
// profile's cooldown in the shared ledger (exit 0, a line saying so, the
// listing shows it available); an id that is not configured is the clear
// error with exit 2, and the ledger is left as it was.
func TestInspectProfilesClear(t *testing.T) {
	s := newSandbox(t)
	store, err := persistence.Open(s.stateDir, persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = store.Ledger().Update(context.Background(), "openai:main", func(st failover.ProfileState) failover.ProfileState {
		return st.RecordFailure(failover.Failure{At: time.Now(), Reason: failover.ReasonRateLimit, ProviderReached: true}, failover.Cooldowns{})
	})
	store.Close()
	if err != nil {
		t.Fatal(err)
	}
	cfg := writeFile(t, "config.json", steerbin.READMEConfig(t))

	code, stdout, stderr := s.run(nil, "--config", cfg, "inspect", "profiles", "--clear", "openai:nope")
	if code != headless.ExitUsage || !strings.Contains(stderr, `no auth profile "openai:nope" is configured`) {
		t.Fatalf("unknown id: exit %d, stderr %q", code, stderr)
	}
	if state := profileState(t, s, cfg, "openai:main"); state != "cooldown" {
		t.Fatalf("after a failed clear openai:main is %s", state)
	}
	code, stdout, stderr = s.run(nil, "--config", cfg, "inspect", "profiles", "--clear", "openai:main")
	if code != headless.ExitOK || !strings.Contains(stdout, "Cleared the cooldown of openai:main.") {
		t.Fatalf("clear: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if state := profileState(t, s, cfg, "openai:main"); state != "available" {
		t.Fatalf("after --clear openai:main is %s", state)
	}
}

// profileState is id's state in `steer inspect profiles --json`.
func profileState(t *testing.T, s *sandbox, cfg, id string) string {
	t.Helper()
	code, stdout, stderr := s.run(nil, "--config", cfg, "inspect", "profiles", "--json")
	if code != headless.ExitOK {
		t.Fatalf("inspect profiles: exit %d: %s", code, stderr)
	}
	var profiles []struct{ ID, State string }
	if err := json.Unmarshal([]byte(stdout), &profiles); err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	for _, p := range profiles {
		if p.ID == id {
			return p.State
		}
	}
	t.Fatalf("%s not listed: %s", id, stdout)
	return ""
}
