package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/persistence/persisttest"
)

// lockedQuitSlack is what a quit on a locked database may take beyond its
// wait; a write that waited the lock out would take ~25 s.
const lockedQuitSlack = 3 * time.Second

// waitOpened waits until process pid has the state directory's database
// open: steer catches the quit signals before it opens anything, so a
// signal then finds it waiting on the database, not yet able to quit in
// order.
func waitOpened(t *testing.T, pid int, stateDir string) {
	t.Helper()
	fds := fmt.Sprintf("/proc/%d/fd", pid)
	if _, err := os.Stat(fds); err != nil {
		t.Skip("needs /proc")
	}
	db := filepath.Join(stateDir, "steer.db")
	pollUntil(t, 10*time.Second, "steer opening "+db, func() bool {
		entries, _ := os.ReadDir(fds)
		for _, e := range entries {
			if target, err := os.Readlink(filepath.Join(fds, e.Name())); err == nil && target == db {
				return true
			}
		}
		return false
	})
}

// quitsOnTime signals cmd and checks that it exits with the signal's status
// within limit.
func quitsOnTime(t *testing.T, cmd *exec.Cmd, sig syscall.Signal, limit time.Duration) {
	t.Helper()
	sent := time.Now()
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	if code := exitCode(t, cmd, limit+20*time.Second); code != 128+int(sig) {
		t.Errorf("exit %d, want %d", code, 128+int(sig))
	}
	if took := time.Since(sent); took > limit {
		t.Errorf("quitting on a locked database took %v, want at most %v", took, limit)
	}
}

// TestQuitOnALockedDatabaseIsOnTime: while another process keeps the
// database locked, SIGTERM and SIGHUP to steer rpc in the middle of a run
// exit with the signal's status once QuitWait is over (the saves still
// pending are given up on, and the log says so), not after every write has
// waited the lock out; the session is free afterwards.
func TestQuitOnALockedDatabaseIsOnTime(t *testing.T) {
	slow(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			s := newSandbox(t)
			cmd := s.command("--pace", "0", "--approve", "auto", "--model", "scripted/echo", "rpc")
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			ch := lines(stdout)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if _, err := fmt.Fprintln(stdin, `{"type":"prompt","message":"run sleep 30"}`); err != nil {
				t.Fatal(err)
			}
			var seen []string
			waitLine(t, ch, `"type":"tool_execution_start"`, 10*time.Second, &seen)
			persisttest.HoldWriteLock(t, filepath.Join(s.stateDir, "steer.db"))
			go func() {
				for range ch {
				}
			}()
			quitsOnTime(t, cmd, sig, runner.QuitWait+lockedQuitSlack)
			logged, err := os.ReadFile(filepath.Join(s.stateDir, "logs", "steer.log"))
			if err != nil || !strings.Contains(string(logged), "given up on") {
				t.Errorf("the log does not say what was given up on (%v):\n%s", err, logged)
			}
		})
	}
}

// TestASignalEndsStartUpOnALockedDatabase: a signal while steer run waits
// on a locked database before its run (claiming the session to continue,
// saving the prompt) exits at once with the signal's status, not with 2
// once the claim has failed.
func TestASignalEndsStartUpOnALockedDatabase(t *testing.T) {
	slow(t)
	for _, tt := range []struct {
		name string
		args []string
		sig  syscall.Signal
	}{
		{"continue/SIGTERM", []string{"--continue"}, syscall.SIGTERM},
		{"continue/SIGINT", []string{"--continue"}, syscall.SIGINT},
		{"new session/SIGHUP", nil, syscall.SIGHUP},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newSandbox(t)
			if code, _, stderr := s.run(nil, "--pace", "0", "run", "hello"); code != 0 {
				t.Fatalf("the first run exited %d: %s", code, stderr)
			}
			persisttest.HoldWriteLock(t, filepath.Join(s.stateDir, "steer.db"))
			cmd := s.command(append(append([]string{"--pace", "0"}, tt.args...), "run", "again")...)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitOpened(t, cmd.Process.Pid, s.stateDir)
			quitsOnTime(t, cmd, tt.sig, lockedQuitSlack)
		})
	}
}
