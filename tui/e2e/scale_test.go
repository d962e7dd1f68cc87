package e2e

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/persistence"
	"github.com/steer-tui/steer/persistence/persisttest/scale"
)

// maxPeakRSS is issue 27's bound on the TUI's peak resident set with a
// session of 10,000 entries open, its whole history read and scrolled.
const maxPeakRSS = 120 << 20

// TestPeakRSSWithALongSession opens a saved session of 10,000 messages
// (compacted every 250, as a 200k-token window makes it) in the TUI, waits
// for the history above its last compaction, goes to its top and back,
// expands every tool block, sends a message and reads the process's peak
// resident set (VmHWM).
func TestPeakRSSWithALongSession(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a session of 10,000 messages")
	}
	requireTmux(t)
	state := t.TempDir()
	store, err := persistence.Open(state, persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := scale.Session{ID: "s_scale", Workspace: t.TempDir(), Messages: 10000, Topic: "parser", CompactEvery: 250,
		Start: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	if err := scale.Import(context.Background(), store, s); err != nil {
		t.Fatal(err)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	p := startPane(t, fmt.Sprintf("exec %q --state-dir %q --session %s", steerBin, state, s.ID))
	p.waitFor("the last answer", "The whole package passes again", 10*time.Second)
	p.typeText("", "Tab", "Home")
	p.waitFor("the first prompt, above the last compaction", "Turn 0: the parser tests fail", 20*time.Second)
	p.typeText("", "End", "PPage", "PPage", "PPage", "C-o", "PPage", "C-o", "End", "Escape")
	// Text typed on the heels of Esc would arrive as Alt+key; wait for the
	// focus to be back in the editor first.
	p.waitFor("the editor's focus", "enter send", 5*time.Second)
	p.typeText("hello", "Enter")
	p.waitFor("the answer", "You said: hello", 10*time.Second)
	peak := peakRSS(t, p)
	t.Logf("peak RSS %.1f MB", float64(peak)/(1<<20))
	if peak > maxPeakRSS {
		t.Errorf("peak RSS %.1f MB, over %d MB", float64(peak)/(1<<20), maxPeakRSS>>20)
	}
}

// peakRSS is the peak resident set of the pane's process (steer, which
// the pane's shell exec'd), from /proc/PID/status.
func peakRSS(t *testing.T, p *pane) int64 {
	t.Helper()
	pid := strings.TrimSpace(p.tmux("display-message", "-p", "#{pane_pid}"))
	status, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("VmHWM: %q: %v", rest, err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no VmHWM in /proc/%s/status", pid)
	return 0
}
