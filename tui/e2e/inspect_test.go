package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// rotationConfig has two scripted auth profiles and an external context
// engine that crashes at once, selected.
const rotationConfig = `{"providers": {"scripted": {"api": "scripted",
	"profiles": [{"id": "scripted:primary"}, {"id": "scripted:backup"}]}},
 "agent": {"contextEngine": "crashy"},
 "contextEngines": {"crashy": {"command": ["sh", "-c", "exit 3"]}}}`

// bottom is the last n rows of the screen: the status line and the help.
func bottom(screen string, n int) string {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	return strings.Join(lines[max(len(lines)-n, 0):], "\n")
}

// TestInspectorsInTmux: "hello" on a profile that fails auth, with an
// engine that crashes, as a user sees it: the answer, one line each for
// the rotation and the quarantine, the status line with the profile in
// use, the meter and the badge; /profiles, /engines (clearing the
// quarantine, which steer inspect engines then agrees with), /trace and
// /lanes.
func TestInspectorsInTmux(t *testing.T) {
	state, dir := t.TempDir(), t.TempDir()
	cfg := filepath.Join(dir, "config.json")
	if err := os.WriteFile(cfg, []byte(rotationConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	p := startPane(t, fmt.Sprintf("exec %q --state-dir %q --config %q --scenario auth-rotation --approve auto --pace 0", steerBin, state, cfg))

	p.typeText("hello", "Enter")
	p.waitFor("the answer", "You said: hello", 10*time.Second)
	p.waitFor("the run to end", " idle ", 10*time.Second)
	p.waitFor("the rotation's line", "↻ auth on profile scripted:primary: trying profile scripted:backup", 5*time.Second)
	p.waitFor("the quarantine's line", "⚠ context engine crashy quarantined", 5*time.Second)
	p.waitFor("the cooldown's line", "❄ profile scripted:primary cools down for", 5*time.Second)
	p.waitFor("the badge", "quarantined", 5*time.Second)
	status := bottom(p.screen(), 2)
	for _, want := range []string{"scripted/echo (offline) · scripted:backup", "ctx ▱▱▱▱▱", "/200k", "⚠ 1 cooldown, 1 quarantined"} {
		if !strings.Contains(status, want) {
			t.Fatalf("the status line lacks %q:\n%s", want, status)
		}
	}

	p.typeText("/profiles", "Enter")
	p.waitFor("the profiles", "Auth profiles", 5*time.Second)
	p.waitFor("the profiles read", "cooldown until", 5*time.Second) // "loading…" until the ledger is read
	screen := p.screen()
	if !rowWith(screen, "scripted:primary", "cooldown until", "auth") || !rowWith(screen, "scripted:backup", "available") {
		t.Fatalf("/profiles does not show primary cooling down after auth and backup available:\n%s", screen)
	}
	p.closeOverlay("Auth profiles")

	p.typeText("/engines", "Enter")
	p.waitFor("the engines", "Context engines", 5*time.Second)
	p.typeText("", "Down")
	p.waitFor("crashy's details", "failed (crash)", 5*time.Second) // "exit status 3", or a broken pipe when it died before reading
	screen = p.screen()
	if !rowWith(screen, "crashy", "quarantined", "crash") || !(rowWith(screen, "crashy", "assemble") || rowWith(screen, "crashy", "ingest")) {
		t.Fatalf("/engines does not show crashy quarantined with the method that failed and why:\n%s", screen)
	}
	p.typeText("c")
	p.waitFor("the question", "Clear the quarantine of crashy?", 5*time.Second)
	time.Sleep(quiet) // a deliberate key, not one typed ahead
	p.typeText("y")
	p.waitFor("the clear", "cleared the quarantine of crashy", 5*time.Second)
	p.waitFor("crashy active again", "active: crashy", 5*time.Second)
	if q := inspectEngines(t, state, cfg); len(q.Quarantines) != 0 || q.Active != "crashy" {
		t.Fatalf("steer inspect engines after clearing: %+v", q)
	}
	p.closeOverlay("Context engines")

	p.typeText("/trace", "Enter")
	p.waitFor("the trace", "Failover trace", 5*time.Second)
	screen = p.screen()
	if !rowWith(screen, "#1", "scripted:primary", "auth", "rotate_profile") || !rowWith(screen, "scripted:primary → scripted:backup") ||
		!rowWith(screen, "#2", "scripted:backup", "answered") {
		t.Fatalf("/trace does not show the attempt that rotated and why:\n%s", screen)
	}
	p.closeOverlay("Failover trace")

	p.typeText("/lanes", "Enter")
	p.waitFor("the lanes", "1 process: 0 running, 0 waiting", 5*time.Second)
	if screen = p.screen(); !rowWith(screen, "global", "idle (cap") {
		t.Fatalf("/lanes does not show the global lane:\n%s", screen)
	}
}

// rowWith reports whether one line of screen holds every one of texts.
func rowWith(screen string, texts ...string) bool {
	for _, l := range strings.Split(screen, "\n") {
		all := true
		for _, s := range texts {
			all = all && strings.Contains(l, s)
		}
		if all {
			return true
		}
	}
	return false
}

// enginesJSON is the part of steer inspect engines --json the test reads.
type enginesJSON struct {
	Active      string            `json:"active"`
	Quarantines []json.RawMessage `json:"quarantines"`
}

func inspectEngines(t *testing.T, state, cfg string) enginesJSON {
	t.Helper()
	cmd := exec.Command(steerBin, "--state-dir", state, "--config", cfg, "inspect", "engines", "--json")
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("steer inspect engines: %v\n%s", err, out)
	}
	var v enginesJSON
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("steer inspect engines --json: %v\n%s", err, out)
	}
	return v
}

// closeOverlay presses Esc and waits for the overlay titled title to go:
// an Esc followed at once by more keys reaches the program as Alt+key.
func (p *pane) closeOverlay(title string) {
	p.t.Helper()
	p.typeText("", "Escape")
	deadline := time.Now().Add(5 * time.Second)
	for strings.Contains(p.screen(), title) {
		if time.Now().After(deadline) {
			p.t.Fatalf("the %s overlay did not close; the screen:\n%s", title, p.screen())
		}
		time.Sleep(20 * time.Millisecond) // poll interval
	}
}
