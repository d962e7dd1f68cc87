package e2e

import (
	"encoding/json"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/runner/headless"
)

// TestACooldownIsAnnounced: a 429 on the only key, with no cooldown wait
// (auth.maxCooldownWaitSeconds 0), prints the window on a line of its own on
// stderr — "cooldown: local:a/m rate_limit until HH:MM:SS" — and with --json
// is a cooldown event on stdout, before the run's end.
func TestACooldownIsAnnounced(t *testing.T) {
	t.Parallel()
	line := regexp.MustCompile(`(?m)^cooldown: local:a/m rate_limit until \d\d:\d\d:\d\d$`)
	t.Run("stderr", func(t *testing.T) {
		s := newSandbox(t)
		var requests atomic.Int32
		cfg := cooldownConfig(t, limitedOnceServer(t, "", &requests), "0")
		code, stdout, stderr := s.run(nil, "--config", cfg, "--model", "local/m", "run", "hello")
		if code != headless.ExitFailed || stdout != "" {
			t.Fatalf("exit %d, stdout %q: %s", code, stdout, stderr)
		}
		if got := line.FindAllString(stderr, -1); len(got) != 1 {
			t.Errorf("stderr has %d cooldown lines, want 1:\n%s", len(got), stderr)
		}
	})
	t.Run("json", func(t *testing.T) {
		s := newSandbox(t)
		var requests atomic.Int32
		cfg := cooldownConfig(t, limitedOnceServer(t, "", &requests), "0")
		began := time.Now().Add(-time.Second).UTC()
		code, stdout, stderr := s.run(nil, "--config", cfg, "--model", "local/m", "run", "--json", "hello")
		if code != headless.ExitFailed {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if got := line.FindAllString(stderr, -1); len(got) != 1 { // its own line, whatever else steer run says
			t.Errorf("with --json stderr has %d cooldown lines, want 1:\n%s", len(got), stderr)
		}
		lines := jsonLines(t, stdout)
		events := ofType(lines, "cooldown")
		if len(events) != 1 {
			t.Fatalf("cooldown events %v", events)
		}
		ev := events[0]
		for field, want := range map[string]any{"profile": "local:a", "model": "m", "state": "cooldown",
			"reason": "rate_limit", "source": "schedule"} {
			if ev[field] != want {
				t.Errorf("cooldown.%s = %v, want %v", field, ev[field], want)
			}
		}
		if id, _ := ev["sessionId"].(string); id == "" {
			t.Errorf("cooldown event has no session: %v", ev)
		}
		until, err := time.Parse(time.RFC3339Nano, ev["until"].(string))
		if err != nil || until.Before(began.Add(29*time.Second)) || until.After(time.Now().Add(31*time.Second)) {
			t.Errorf("cooldown.until = %v (%v), want about 30 s from now", ev["until"], err)
		}
		order := []string{}
		for _, l := range lines {
			if typ := l["type"].(string); typ == "cooldown" || typ == "agent_end" {
				order = append(order, typ)
			}
		}
		if strings.Join(order, " ") != "cooldown agent_end" {
			t.Errorf("order %v, want the cooldown before agent_end", order)
		}
	})
}

// TestProfileFlag: --profile names the profile a session prefers; one that
// is not configured is a usage error naming the configured ones, and
// `steer inspect profiles --profile ID --json` marks it preferred.
func TestProfileFlag(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	var requests atomic.Int32
	cfg := cooldownConfig(t, limitedOnceServer(t, "", &requests), "0")
	code, _, stderr := s.run(nil, "--config", cfg, "--model", "local/m", "--profile", "local:nope", "run", "hello")
	if code != headless.ExitUsage || !strings.Contains(stderr, `--profile: no auth profile "local:nope" is configured (configured: local:a`) {
		t.Fatalf("unknown --profile: exit %d, stderr %q", code, stderr)
	}
	if requests.Load() != 0 {
		t.Errorf("%d requests, want none", requests.Load())
	}
	code, _, stderr = s.run(nil, "--config", cfg, "inspect", "profiles", "--profile", "local:nope")
	if code != headless.ExitUsage || !strings.Contains(stderr, `no auth profile "local:nope" is configured`) {
		t.Fatalf("inspect with an unknown --profile: exit %d, stderr %q", code, stderr)
	}
	code, stdout, stderr := s.run(nil, "--config", cfg, "inspect", "profiles", "--json", "--profile", "local:a")
	if code != headless.ExitOK {
		t.Fatalf("inspect: exit %d: %s", code, stderr)
	}
	var views []struct {
		ID                string
		Preferred, Locked bool
	}
	if err := json.Unmarshal([]byte(stdout), &views); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, v := range views {
		if v.ID == "local:a" {
			found = v.Preferred && !v.Locked
		}
	}
	if !found {
		t.Errorf("inspect profiles --json: %s, want local:a preferred", stdout)
	}
}
