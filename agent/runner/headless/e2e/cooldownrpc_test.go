package e2e

import (
	"strings"
	"sync/atomic"
	"testing"
)

// TestRPCCarriesTheCooldown: with `steer rpc`, the window a 429 opens is
// a cooldown event {profile, model, state, reason, until, source,
// sessionId} before the run's end, as with `steer run --json`.
func TestRPCCarriesTheCooldown(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	var requests atomic.Int32
	cfg := cooldownConfig(t, limitedOnceServer(t, "", &requests), "0")
	code, stdout, stderr := s.run(strings.NewReader(`{"type":"prompt","message":"hello","id":"p1"}`+"\n"),
		"--config", cfg, "--model", "local/m", "rpc")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := jsonLines(t, stdout)
	events := ofType(lines, "cooldown")
	if len(events) != 1 {
		t.Fatalf("cooldown events %v in\n%s", events, stdout)
	}
	for field, want := range map[string]any{"profile": "local:a", "model": "m", "state": "cooldown",
		"reason": "rate_limit", "source": "schedule"} {
		if events[0][field] != want {
			t.Errorf("cooldown.%s = %v, want %v", field, events[0][field], want)
		}
	}
	if until, _ := events[0]["until"].(string); until == "" {
		t.Errorf("cooldown has no until: %v", events[0])
	}
	if id, _ := events[0]["sessionId"].(string); id == "" {
		t.Errorf("cooldown event has no session: %v", events[0])
	}
	var order []string
	for _, l := range lines {
		if typ := l["type"]; typ == "cooldown" || typ == "agent_end" {
			order = append(order, typ.(string))
		}
	}
	if strings.Join(order, " ") != "cooldown agent_end" {
		t.Errorf("order %v, want the cooldown before agent_end", order)
	}
}
