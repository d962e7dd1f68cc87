package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/runner"
)

// idleLooks is how many of the store's version reads an idle TUI is watched
// for, after the one at start.
const idleLooks = 3

// TestIdleRunsNoQueries: an idle TUI with STEER_LOG=debug (every SQLite
// statement logged) runs one statement on a clock, the store's version
// read (PRAGMA data_version), no more than once every few seconds; nothing
// reads a table while nothing happens.
func TestIdleRunsNoQueries(t *testing.T) {
	if testing.Short() {
		t.Skip("watches an idle TUI for 15 s")
	}
	state := t.TempDir()
	startPane(t, fmt.Sprintf("exec env %s=debug %q --state-dir %q", runner.LogEnv, steerBin, state))
	type record struct {
		Time time.Time
		Msg  string
		Stmt string
	}
	const version = "PRAGMA data_version"
	var stmts []record
	deadline := time.Now().Add(time.Duration(idleLooks+2) * 5 * time.Second)
	for {
		data, err := os.ReadFile(filepath.Join(state, filepath.FromSlash(runner.LogFile)))
		if err != nil {
			t.Fatal(err)
		}
		stmts = stmts[:0]
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var r record
			if json.Unmarshal([]byte(line), &r) == nil && r.Msg == "sqlite" {
				stmts = append(stmts, r)
			}
		}
		looks := 0
		for _, r := range stmts {
			if r.Stmt == version {
				looks++
			}
		}
		if looks > idleLooks {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d reads of the store's version by %v", looks, deadline)
		}
		time.Sleep(100 * time.Millisecond) // poll interval, not a wait for the app
	}
	// After the second look, start-up (the session, the first reading of
	// the health) is over: from there on only the looks.
	var looks []time.Time
	for _, r := range stmts {
		switch {
		case r.Stmt == version:
			looks = append(looks, r.Time)
		case len(looks) >= 2:
			t.Errorf("idle, the TUI ran %q", r.Stmt)
		}
	}
	for i := 2; i < len(looks); i++ {
		if gap := looks[i].Sub(looks[i-1]); gap < 4*time.Second {
			t.Errorf("look %d came %v after the one before, want a few seconds", i, gap)
		}
	}
}
