package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/runner"
)

// moduleDir is where the tests started: the module's root.
var moduleDir, _ = os.Getwd()

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// steerBinary builds the binary once for the tests that need a process of
// their own (signals, pipes, exit statuses as the shell sees them).
func steerBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "steer-main-test-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "steer")
		build := exec.Command("go", "build", "-o", binPath, ".")
		build.Dir = moduleDir
		if out, err := build.CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// steerCmd is the binary on a private state directory and workspace,
// offline whatever the developer's environment holds.
func steerCmd(t *testing.T, stateDir string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(steerBinary(t), append([]string{"--state-dir", stateDir}, args...)...)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "STEER_STATE_DIR=", "ANTHROPIC_API_KEY=", "OPENAI_API_KEY=",
		"OPENROUTER_API_KEY=", "XDG_CONFIG_HOME="+cmd.Dir)
	return cmd
}

// lines reads r line by line into a channel, closed at the end.
func lines(r io.Reader) <-chan string {
	ch := make(chan string, 256)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			ch <- sc.Text()
		}
	}()
	return ch
}

// waitLine returns the first line containing want, failing after timeout;
// seen collects every line read.
func waitLine(t *testing.T, ch <-chan string, want string, timeout time.Duration, seen *[]string) {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-ch:
			if !ok {
				t.Fatalf("output ended before %q; got %q", want, *seen)
			}
			*seen = append(*seen, l)
			if strings.Contains(l, want) {
				return
			}
		case <-deadline:
			t.Fatalf("no %q within %v; got %q", want, timeout, *seen)
		}
	}
}

// exitCode waits for cmd, failing after timeout.
func exitCode(t *testing.T, cmd *exec.Cmd, timeout time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(timeout):
		_ = cmd.Process.Kill()
		t.Fatalf("steer did not exit within %v", timeout)
		return -1
	}
}

// lastSavedMessage reads the only saved session's last message through
// `steer sessions show ID --json`.
func lastSavedMessage(t *testing.T, stateDir string) map[string]any {
	t.Helper()
	out, err := steerCmd(t, stateDir, "sessions", "--json").Output()
	if err != nil {
		t.Fatalf("steer sessions: %v", err)
	}
	var list []struct{ ID string }
	if err := json.Unmarshal(out, &list); err != nil || len(list) != 1 {
		t.Fatalf("sessions: %s (%v)", out, err)
	}
	out, err = steerCmd(t, stateDir, "sessions", "show", list[0].ID, "--json").Output()
	if err != nil {
		t.Fatalf("steer sessions show: %v", err)
	}
	var msgs []map[string]any
	if err := json.Unmarshal(out, &msgs); err != nil || len(msgs) == 0 {
		t.Fatalf("transcript: %s (%v)", out, err)
	}
	return msgs[len(msgs)-1]
}

// TestRunShowsToolOutputLive: a command's output reaches stderr as it is
// printed, not when the command ends.
func TestRunShowsToolOutputLive(t *testing.T) {
	cmd := steerCmd(t, t.TempDir(), "--pace", "0", "run", "run for i in 1 2 3; do echo step-$i; sleep 1; done")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout strings.Builder
	cmd.Stdout = &stdout
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ch := lines(stderr)
	var seen []string
	waitLine(t, ch, "step-1", 2*time.Second, &seen)
	t.Logf("step-1 after %v", time.Since(start))
	waitLine(t, ch, "step-3", 5*time.Second, &seen)
	for l := range ch {
		seen = append(seen, l)
	}
	if code := exitCode(t, cmd, 10*time.Second); code != 0 {
		t.Fatalf("exit %d; stderr %q", code, seen)
	}
	want := []string{"→ bash for i in 1 2 3; do echo step-$i; sleep 1; done", "  │ step-1", "  │ step-2", "  │ step-3", "← bash ok"}
	if strings.Join(seen, "\n") != strings.Join(want, "\n") {
		t.Errorf("stderr\n%s\nwant\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}
	if strings.Contains(stdout.String(), "│") || stdout.String() == "" {
		t.Errorf("stdout %q: want the answer alone", stdout.String())
	}
}

// TestRunTimeoutIsRecorded: --timeout ends the run with exit status 3, says
// why, and the saved aborted marker names the limit.
func TestRunTimeoutIsRecorded(t *testing.T) {
	stateDir := t.TempDir()
	cmd := steerCmd(t, stateDir, "--pace", "0", "--timeout", "1s", "run", "run sleep 5")
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
	if !strings.HasSuffix(stderr.String(), "steer: run timed out after 1s\n") {
		t.Errorf("stderr %q", stderr.String())
	}
	last := lastSavedMessage(t, stateDir)
	if last["stopReason"] != "aborted" || last["errorMessage"] != "run timed out after 1s" {
		t.Errorf("last message: %v", last)
	}
}

// TestSignalsQuitInOrder: SIGINT, SIGTERM and SIGHUP abort the active run
// with the signal as its reason, let its command be killed and its marker
// be saved, and exit with 128 + the signal's number, in `steer run` and
// `steer rpc` alike.
func TestSignalsQuitInOrder(t *testing.T) {
	for _, tt := range []struct {
		sig    syscall.Signal
		reason string
	}{
		{syscall.SIGINT, "steer received SIGINT"},
		{syscall.SIGTERM, "steer received SIGTERM"},
		{syscall.SIGHUP, "steer received SIGHUP (the terminal closed)"},
	} {
		for _, mode := range []string{"run", "rpc"} {
			t.Run(mode+"/"+tt.sig.String(), func(t *testing.T) {
				stateDir := t.TempDir()
				var cmd *exec.Cmd
				var ch <-chan string
				var started string
				if mode == "run" {
					cmd = steerCmd(t, stateDir, "--pace", "0", "run", "run sleep 30")
					stderr, err := cmd.StderrPipe()
					if err != nil {
						t.Fatal(err)
					}
					ch, started = lines(stderr), "→ bash sleep 30"
					if err := cmd.Start(); err != nil {
						t.Fatal(err)
					}
				} else {
					cmd = steerCmd(t, stateDir, "--pace", "0", "rpc")
					cmd.Stdin = strings.NewReader(`{"type":"prompt","message":"run sleep 30"}` + "\n")
					stdout, err := cmd.StdoutPipe()
					if err != nil {
						t.Fatal(err)
					}
					ch, started = lines(stdout), `"type":"tool_execution_start"`
					if err := cmd.Start(); err != nil {
						t.Fatal(err)
					}
				}
				var seen []string
				waitLine(t, ch, started, 10*time.Second, &seen)
				sent := time.Now()
				if err := cmd.Process.Signal(tt.sig); err != nil {
					t.Fatal(err)
				}
				go func() {
					for range ch {
					}
				}()
				if code := exitCode(t, cmd, 10*time.Second); code != 128+int(tt.sig) {
					t.Errorf("exit %d, want %d", code, 128+int(tt.sig))
				}
				if took := time.Since(sent); took > 5*time.Second {
					t.Errorf("quitting took %v", took)
				}
				last := lastSavedMessage(t, stateDir)
				if last["stopReason"] != "aborted" || last["errorMessage"] != tt.reason {
					t.Errorf("last message: %v; want aborted with %q", last, tt.reason)
				}
			})
		}
	}
}

// TestTUIQuitsInOrderOnASignal: the terminal UI, in tmux, with a command
// running: SIGHUP (the terminal closed) and SIGTERM abort the run with the
// signal as its reason and exit with 128 + its number.
func TestTUIQuitsInOrderOnASignal(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("needs tmux")
	}
	bin := steerBinary(t)
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir, stateDir := t.TempDir(), t.TempDir()
			socket := fmt.Sprintf("steer-main-test-%d-%d", os.Getpid(), sig)
			tmux := func(args ...string) string {
				out, err := exec.Command("tmux", append([]string{"-L", socket}, args...)...).CombinedOutput()
				if err != nil {
					t.Fatalf("tmux %v: %v\n%s", args, err, out)
				}
				return string(out)
			}
			pidFile, statusFile := filepath.Join(dir, "pid"), filepath.Join(dir, "status")
			// The inner shell records steer's pid and becomes steer; the
			// outer one records its exit status.
			errFile := filepath.Join(dir, "stderr")
			inner := fmt.Sprintf("echo $$ > %s; exec %s --state-dir %s --pace 0 2>%s", shQuote(pidFile), shQuote(bin), shQuote(stateDir), shQuote(errFile))
			shell := fmt.Sprintf("sh -c %s; echo $? > %s; sleep 60", shQuote(inner), shQuote(statusFile))
			tmux("-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30", "-c", dir,
				"-e", "TERM=xterm-256color", "-e", "STEER_STATE_DIR=", "-e", "COLORFGBG=15;0",
				"-e", "ANTHROPIC_API_KEY=", "-e", "OPENAI_API_KEY=", "-e", "OPENROUTER_API_KEY=",
				"-e", "XDG_CONFIG_HOME="+dir, shell)
			t.Cleanup(func() { _ = exec.Command("tmux", "-L", socket, "kill-server").Run() })
			waitFor := func(what string, ok func() bool) {
				t.Helper()
				deadline := time.Now().Add(10 * time.Second)
				for !ok() {
					if time.Now().After(deadline) {
						t.Fatalf("no %s; screen:\n%s", what, tmux("capture-pane", "-p"))
					}
					time.Sleep(50 * time.Millisecond)
				}
			}
			waitFor("first screen", func() bool { return strings.Contains(tmux("capture-pane", "-p"), "scripted") })
			tmux("send-keys", "-l", "run sleep 30")
			tmux("send-keys", "Enter")
			waitFor("the command", func() bool { return strings.Contains(tmux("capture-pane", "-p"), "sleep 30") })
			time.Sleep(300 * time.Millisecond) // the tool call starts after its line shows
			data, err := os.ReadFile(pidFile)
			if err != nil {
				t.Fatal(err)
			}
			var pid int
			if _, err := fmt.Sscanf(string(data), "%d", &pid); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Kill(pid, sig); err != nil {
				t.Fatal(err)
			}
			var status []byte
			t.Cleanup(func() {
				if t.Failed() {
					_ = syscall.Kill(pid, syscall.SIGQUIT)
					time.Sleep(time.Second)
					data, _ := os.ReadFile(errFile)
					t.Logf("stderr:\n%s", data)
				}
			})
			waitFor("exit status", func() bool {
				status, err = os.ReadFile(statusFile)
				return err == nil && len(status) > 0
			})
			if got, want := strings.TrimSpace(string(status)), fmt.Sprint(128+int(sig)); got != want {
				t.Errorf("exit status %s, want %s", got, want)
			}
			last := lastSavedMessage(t, stateDir)
			if want := runner.AbortSignal(sig); last["stopReason"] != "aborted" || last["errorMessage"] != want {
				t.Errorf("last message: %v; want aborted with %q", last, want)
			}
		})
	}
}

// shQuote quotes s for sh.
func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
