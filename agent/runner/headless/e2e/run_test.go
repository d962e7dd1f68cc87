package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runLiveCommand prints a line, then waits for the test to create the file
// go-on in the workspace (20 s at most, should the test fail) before it
// prints the next and ends: its first line reaches the test in time only
// if it is shown while the command runs.
const runLiveCommand = "echo step-1; i=0; while [ $i -lt 400 ]; do [ -e go-on ] && break; sleep 0.05; i=$((i+1)); done; echo step-2"

// TestRunShowsToolOutputLive: a command's output reaches stderr as it is
// printed, not when the command ends.
func TestRunShowsToolOutputLive(t *testing.T) {
	slow(t)
	s := newSandbox(t)
	cmd := s.command("--state-dir", s.stateDir, "--pace", "0", "run", "run "+runLiveCommand)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout strings.Builder
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ch := lines(stderr)
	var seen []string
	waitLine(t, ch, "step-1", 10*time.Second, &seen)
	if err := os.WriteFile(filepath.Join(s.workspace, "go-on"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	waitLine(t, ch, "step-2", 10*time.Second, &seen)
	for l := range ch {
		seen = append(seen, l)
	}
	if code := exitCode(t, cmd, 10*time.Second); code != 0 {
		t.Fatalf("exit %d; stderr %q", code, seen)
	}
	want := []string{"→ bash " + runLiveCommand, "  │ step-1", "  │ step-2", "← bash ok"}
	if strings.Join(seen, "\n") != strings.Join(want, "\n") {
		t.Errorf("stderr\n%s\nwant\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}
	if strings.Contains(stdout.String(), "│") || stdout.String() == "" {
		t.Errorf("stdout %q: want the answer alone", stdout.String())
	}
}

// TestRunTimeoutIsRecorded: --timeout ends the run with exit status 3, says
// why and that the run is a hard timeout (the limit struck in its tool, once
// it had reached the provider: seed 000 §4.4), and the saved aborted marker
// names the limit.
func TestRunTimeoutIsRecorded(t *testing.T) {
	slow(t)
	s := newSandbox(t)
	cmd := s.command("--state-dir", s.stateDir, "--pace", "0", "--timeout", "1s", "run", "run sleep 5")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if code := exitCode(t, cmd, 10*time.Second); code != 3 {
		t.Fatalf("exit %d, want 3; stderr %q", code, stderr.String())
	}
	if took := time.Since(start); took > 4*time.Second {
		t.Errorf("took %v: the sleep was not stopped", took)
	}
	if !strings.HasSuffix(stderr.String(), "steer: run timed out after 1s\nsteer: run timeout\n") {
		t.Errorf("stderr %q", stderr.String())
	}
	last := lastSavedMessage(t, s)
	if last["stopReason"] != "aborted" || last["errorMessage"] != "run timed out after 1s" {
		t.Errorf("last message: %v", last)
	}
}
