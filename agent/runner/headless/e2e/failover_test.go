package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent/runner/headless"
)

// twoProfiles configures the scripted provider with two auth profiles.
const twoProfiles = `{"providers": {"scripted": {"api": "scripted",
	"profiles": [{"id": "scripted:primary"}, {"id": "scripted:backup"}]}}}`

// jsonLines decodes steer run --json output.
func jsonLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("not JSON: %q", l)
		}
		lines = append(lines, v)
	}
	return lines
}

func ofType(lines []map[string]any, typ string) []map[string]any {
	var out []map[string]any
	for _, l := range lines {
		if l["type"] == typ {
			out = append(out, l)
		}
	}
	return out
}

// TestARehearsalRotatesAndLeavesNoTrace: in a rehearsal, profile A
// answers 429 and the run rotates to B and completes; A's cooldown lives in
// the rehearsal's own ledger only, so the shared ledger shows none and the
// next process, without --scenario, starts on A.
func TestARehearsalRotatesAndLeavesNoTrace(t *testing.T) {
	s := newSandbox(t)
	cfg := writeFile(t, "config.json", twoProfiles)
	code, stdout, stderr := s.run(nil, "--config", cfg, "--scenario", "rate-limit", "--pace", "0", "run", "--json", "hello")
	if code != headless.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := jsonLines(t, stdout)
	failovers := ofType(lines, "failover")
	if len(failovers) != 1 || failovers[0]["reason"] != "rate_limit" || failovers[0]["decision"] != "rotate_profile" ||
		failovers[0]["from"] != "scripted:primary" || failovers[0]["to"] != "scripted:backup" {
		t.Fatalf("failover events %v", failovers)
	}
	if n := len(ofType(lines, "attempt_end")); n != 2 {
		t.Fatalf("%d attempt_end events, want 2", n)
	}

	code, stdout, stderr = s.run(nil, "--config", cfg, "inspect", "profiles", "--json")
	if code != headless.ExitOK {
		t.Fatalf("inspect: exit %d: %s", code, stderr)
	}
	var profiles []map[string]any
	if err := json.Unmarshal([]byte(stdout), &profiles); err != nil {
		t.Fatal(err)
	}
	for _, p := range profiles {
		if p["state"] != "available" || p["failures"] != float64(0) {
			t.Fatalf("the rehearsal left a trace in the shared ledger: %v", p)
		}
	}

	code, stdout, stderr = s.run(nil, "--config", cfg, "--pace", "0", "run", "--json", "again")
	if code != headless.ExitOK {
		t.Fatalf("second run: exit %d: %s", code, stderr)
	}
	if at := ofType(jsonLines(t, stdout), "attempt_start"); len(at) != 1 || at[0]["profile"] != "scripted:primary" {
		t.Fatalf("the next process's attempts %v, want one on scripted:primary", at)
	}
}

// TestRehearsalsNeverLockOutTheNextRun is the README's sequence: a
// rehearsal on the only profile, then a real run, exits 0; the shared
// ledger shows no cooldown.
func TestRehearsalsNeverLockOutTheNextRun(t *testing.T) {
	for _, scenario := range []string{"rate-limit", "stall-with-pings"} {
		t.Run(scenario, func(t *testing.T) {
			s := newSandbox(t)
			cfg := writeFile(t, "config.json", `{"auth": {"maxCooldownWaitSeconds": 0},
				"providers": {"scripted": {"api": "scripted", "timeoutSeconds": 1}}}`)
			s.run(nil, "--config", cfg, "--scenario", scenario, "--pace", "0", "run", "hello")
			if code, _, stderr := s.run(nil, "--config", cfg, "--pace", "0", "run", "hello"); code != headless.ExitOK {
				t.Fatalf("the run after the rehearsal: exit %d: %s", code, stderr)
			}
			_, stdout, _ := s.run(nil, "--config", cfg, "inspect", "profiles", "--json")
			if strings.Contains(stdout, "cooldown") {
				t.Fatalf("inspect profiles shows a rehearsal's cooldown: %s", stdout)
			}
		})
	}
}

// TestModelNotFoundFallsBack: the first model is missing on every profile;
// the run falls back to the configured fallback model and completes.
func TestModelNotFoundFallsBack(t *testing.T) {
	s := newSandbox(t)
	cfg := writeFile(t, "config.json", `{"fallbacks": ["scripted/tiny"], "providers": {"scripted": {"api": "scripted",
		"profiles": [{"id": "scripted:primary"}, {"id": "scripted:backup"}]}}}`)
	scenario := writeFile(t, "missing.json", `{"then": "default", "steps": [{"when": {"model": "echo"}, "always": true,
		"fault": "http", "error": {"status": 404, "type": "not_found_error", "message": "model: echo does not exist"}}]}`)
	code, stdout, stderr := s.run(nil, "--config", cfg, "--scenario", scenario, "--pace", "0", "--model", "scripted/echo", "run", "--json", "hello")
	if code != headless.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := jsonLines(t, stdout)
	f := ofType(lines, "failover")
	if len(f) != 1 || f[0]["reason"] != "model_not_found" || f[0]["decision"] != "fallback_model" || f[0]["to"] != "scripted/tiny" {
		t.Fatalf("failover events %v", f)
	}
	end := ofType(lines, "agent_end")[0]["messages"].([]any)
	last := end[len(end)-1].(map[string]any)
	if last["model"] != "tiny" || last["stopReason"] != "stop" {
		t.Fatalf("the answer: %v", last)
	}
}

// TestFormatErrorIsSurfaced: a 400 format error ends the run with exit 1
// and no rotation.
func TestFormatErrorIsSurfaced(t *testing.T) {
	s := newSandbox(t)
	cfg := writeFile(t, "config.json", twoProfiles)
	scenario := writeFile(t, "format.json", `{"steps": [{"always": true, "fault": "http",
		"error": {"status": 400, "type": "invalid_request_error", "message": "messages: roles must alternate"}}]}`)
	code, stdout, stderr := s.run(nil, "--config", cfg, "--scenario", scenario, "--pace", "0", "run", "--json", "hello")
	if code != headless.ExitFailed || !strings.Contains(stderr, "roles must alternate") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	lines := jsonLines(t, stdout)
	if n, f := len(ofType(lines, "attempt_start")), ofType(lines, "failover"); n != 1 || len(f) != 0 {
		t.Fatalf("%d attempts and failovers %v, want one attempt and none", n, f)
	}
}
