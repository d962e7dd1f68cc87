package rpc

import (
	"context"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/contextguard/engines"
	"github.com/steer-tui/steer/failover"
	"github.com/steer-tui/steer/persistence"
)

// TestServerClearQuarantineOfAnEngineWithout: clearing an engine that is
// not quarantined fails, in the words of `steer inspect engines --clear`.
func TestServerClearQuarantineOfAnEngineWithout(t *testing.T) {
	h := newHarness(t, agenttest.NewScript())
	h.send(`{"type":"clear_quarantine","engine":"legacy","id":"q"}`)
	r := h.response("q")
	if r["success"] != false || r["error"] != (&runner.NotQuarantinedError{Engine: "legacy"}).Error() {
		t.Fatalf("clear_quarantine of legacy: %v", r)
	}
}

// TestServerClearQuarantine: clear_quarantine of a quarantined engine
// says so in a quarantine_cleared {engine} event before its answer.
func TestServerClearQuarantine(t *testing.T) {
	store, err := persistence.Open(t.TempDir(), persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if _, err := store.EngineQuarantines().Record(context.Background(), engines.Quarantine{Engine: "legacy",
		Method: engines.MethodAssemble, Reason: engines.ReasonCrash, Since: agenttest.Clock(), Last: agenttest.Clock(), Count: 1}); err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, agenttest.NewScript(), runner.Options{Store: store, Workspace: "/ws"})
	h.send(`{"type":"clear_quarantine","engine":"legacy","id":"q"}`)
	seen := h.until(func(l line) bool { return l.isResponse("q") })
	if r := seen[len(seen)-1]; r["success"] != true || r.data()["cleared"] != true {
		t.Fatalf("clear_quarantine: %v", r)
	}
	if len(seen) != 2 || !seen[0].is("quarantine_cleared") || seen[0]["engine"] != "legacy" || seen[0]["sessionId"] == nil {
		t.Fatalf("before the response: %v, want one quarantine_cleared {engine: legacy, sessionId}", seen[:len(seen)-1])
	}
}

// TestServerClearCooldown: clear_cooldown ends a profile's cooldown, as the
// profiles inspector shows, and says so in a cooldown_cleared event; an
// unknown profile fails and changes nothing.
func TestServerClearCooldown(t *testing.T) {
	ledger := &failover.MemLedger{}
	_, err := ledger.Update(context.Background(), "test:default", func(st failover.ProfileState) failover.ProfileState {
		return st.RecordFailure(failover.Failure{At: agenttest.Clock(), Reason: failover.ReasonRateLimit, ProviderReached: true}, failover.Cooldowns{})
	})
	if err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, agenttest.NewScript(), runner.Options{Ledger: ledger})
	state := func(id string) any {
		h.send(`{"type":"inspect","what":"profiles","id":"` + id + `"}`)
		profiles, _ := h.response(id).data()["profiles"].([]any)
		if len(profiles) != 1 {
			t.Fatalf("profiles %v", profiles)
		}
		return profiles[0].(map[string]any)["state"]
	}
	if s := state("i1"); s != "cooldown" {
		t.Fatalf("before: %v", s)
	}
	h.send(`{"type":"clear_cooldown","profile":"test:nope","id":"c1"}`)
	if r := h.response("c1"); r["success"] != false || !strings.Contains(r["error"].(string), `no auth profile "test:nope" is configured`) {
		t.Fatalf("clear_cooldown of an unknown profile: %v", r)
	}
	h.send(`{"type":"clear_cooldown","id":"c2"}`)
	if r := h.response("c2"); r["success"] != false || !strings.Contains(r["error"].(string), `"profile"`) {
		t.Fatalf("clear_cooldown without a profile: %v", r)
	}
	if s := state("i2"); s != "cooldown" {
		t.Fatalf("after failed clears: %v", s)
	}
	h.send(`{"type":"clear_cooldown","profile":"test:default","id":"c3"}`)
	seen := h.until(func(l line) bool { return l.isResponse("c3") })
	if r := seen[len(seen)-1]; r["success"] != true || r.data()["cleared"] != true {
		t.Fatalf("clear_cooldown: %v", r)
	}
	if len(seen) != 2 || !seen[0].is("cooldown_cleared") || seen[0]["profile"] != "test:default" || seen[0]["source"] != "user" ||
		seen[0]["sessionId"] == nil {
		t.Fatalf("before the response: %v, want one cooldown_cleared {profile: test:default, source: user, sessionId}", seen[:len(seen)-1])
	}
	if s := state("i3"); s != "available" {
		t.Fatalf("after clear_cooldown: %v", s)
	}
}
