package e2e

import (
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/steer-tui/steer/agent/runner/headless"
)

// TestProfileFlagIsSavedWithTheSession: the preferred profile `steer run
// --profile` gave its session is read by `steer inspect profiles --json`,
// another process given no --profile, as that session's.
func TestProfileFlagIsSavedWithTheSession(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	var requests atomic.Int32
	cfg := cooldownConfig(t, limitedOnceServer(t, "", &requests), "0")
	if code, _, stderr := s.run(nil, "--config", cfg, "--model", "local/m", "--profile", "local:a", "run", "hello"); code == headless.ExitUsage {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := s.run(nil, "--config", cfg, "inspect", "profiles", "--json")
	if code != headless.ExitOK {
		t.Fatalf("inspect: exit %d: %s", code, stderr)
	}
	var views []struct {
		ID                    string
		Preferred, Locked     bool
		PreferredBy, LockedBy []string
	}
	if err := json.Unmarshal([]byte(stdout), &views); err != nil {
		t.Fatal(err)
	}
	for _, v := range views {
		if v.ID != "local:a" {
			continue
		}
		if !v.Preferred || v.Locked || len(v.PreferredBy) != 1 || !strings.HasPrefix(v.PreferredBy[0], "s_") || v.LockedBy == nil {
			t.Errorf("local:a = %+v, want preferred by the one session run made", v)
		}
		return
	}
	t.Errorf("inspect profiles --json: %s, no local:a", stdout)
}
