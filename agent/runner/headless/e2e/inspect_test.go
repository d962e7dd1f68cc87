package e2e

import (
	"context"
	"encoding/json"
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
