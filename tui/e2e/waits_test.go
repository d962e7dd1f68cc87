package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// cooldownWait is the status line counting a cooldown wait down.
var cooldownWait = regexp.MustCompile(`waiting (\d+) s for a cooldown`)

// TestRateLimitSaysItWaitsForACooldown: with one scripted profile, the
// first request gets a 429 and the runner waits out the 30 s cooldown; the
// status line says so and counts down, never "working", and Esc ends the
// wait without putting the prompt back into the editor.
func TestRateLimitSaysItWaitsForACooldown(t *testing.T) {
	p := startPane(t, fmt.Sprintf("exec %q --state-dir %q --approve auto --scenario rate-limit", steerBin, t.TempDir()))
	p.typeText("hello", "Enter")
	p.waitFor("the cooldown wait", "s for a cooldown", 10*time.Second)
	first := waitLeft(t, p, func(int) bool { return true })
	if first > 30 || first < 20 {
		t.Fatalf("the wait starts at %d s, want 2x s of the 30 s cooldown:\n%s", first, p.screen())
	}
	next := waitLeft(t, p, func(left int) bool { return left < first })
	if next < 20 || next > 29 {
		t.Fatalf("the wait counted down to %d s, want 2x s:\n%s", next, p.screen())
	}
	t.Logf("counted down from %d s to %d s", first, next)
	p.typeText("", "Escape")
	p.waitFor("the interrupt", "idle", 2*time.Second)
	if s := p.screen(); strings.Contains("\n"+s, "\n› hello") {
		t.Fatalf("an aborted prompt came back into the editor:\n%s", s)
	}
}

// waitLeft waits until the status line shows a cooldown wait whose seconds
// left satisfy ok, and returns them; it fails if the line says "working"
// meanwhile.
func waitLeft(t *testing.T, p *pane, ok func(left int) bool) int {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		s := p.screen()
		if strings.Contains(s, "working") {
			t.Fatalf("the status line says working while the run waits:\n%s", s)
		}
		if m := cooldownWait.FindStringSubmatch(s); m != nil {
			var left int
			fmt.Sscan(m[1], &left)
			if ok(left) {
				return left
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no cooldown wait to count down:\n%s", s)
		}
		time.Sleep(20 * time.Millisecond) // poll interval, not a wait for the app
	}
}
