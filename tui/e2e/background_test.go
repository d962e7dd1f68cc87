package e2e

import (
	"strings"
	"testing"
	"time"
)

// TestNewSessionWhileARunGoesOn: /new during a command leaves it running in
// the background (the badge says so); once it has ended, /sessions brings
// its session back with the command's output.
func TestNewSessionWhileARunGoesOn(t *testing.T) {
	p := startSteer(t)
	p.typeText("run sleep 2; echo background-done", "Enter")
	p.waitFor("the command to start", "bash sleep 2; echo background-done", 10*time.Second)
	p.typeText("/new", "Enter")
	p.waitFor("the badge", "▶ 1 in background", 5*time.Second)
	if s := p.screen(); !strings.Contains(s, "new session") {
		t.Fatalf("the new session is not on screen:\n%s", s)
	}
	p.typeText("hello", "Enter")
	p.waitFor("the new session's answer", "You said: hello", 10*time.Second)
	waitGone(p, "the badge to go", "in background", 15*time.Second)
	if s := p.screen(); strings.Contains(s, "background-done") {
		t.Fatalf("the background session's output shows in the new one:\n%s", s)
	}
	p.typeText("/sessions", "Enter")
	p.waitFor("the picker", "Resume a session", 5*time.Second)
	for _, key := range []string{"Down", "Up"} { // the picker selects the session on screen
		if selectedRow(p.screen(), "run sleep 2") {
			break
		}
		before := p.screen()
		p.typeText("", key)
		waitChange(p, before, 2*time.Second)
	}
	// The last key's change may still be on its way (the screen can change
	// for other reasons first, the "just now" of a row): poll for it.
	deadline := time.Now().Add(5 * time.Second)
	for !selectedRow(p.screen(), "run sleep 2") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond) // poll interval, not a wait for the app
	}
	if !selectedRow(p.screen(), "run sleep 2") {
		t.Fatalf("cannot select the first session:\n%s", p.screen())
	}
	p.typeText("", "Enter")
	p.waitFor("the first session", "background-done", 5*time.Second)
}

// selectedRow reports whether the picker's selected row shows text.
func selectedRow(screen, text string) bool {
	for _, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, "› ") && strings.Contains(line, text) {
			return true
		}
	}
	return false
}

// waitChange polls the screen until it differs from before (or timeout).
func waitChange(p *pane, before string, timeout time.Duration) {
	start := time.Now()
	for time.Since(start) < timeout && p.screen() == before {
		time.Sleep(20 * time.Millisecond) // poll interval, not a wait for the app
	}
}

// waitGone polls the screen until text is gone from it.
func waitGone(p *pane, what, text string, timeout time.Duration) {
	p.t.Helper()
	start := time.Now()
	var last string
	for time.Since(start) < timeout {
		if last = p.screen(); !strings.Contains(last, text) {
			return
		}
		time.Sleep(20 * time.Millisecond) // poll interval, not a wait for the app
	}
	p.t.Fatalf("%s: %q still shows after %v; the screen:\n%s", what, text, timeout, last)
}
