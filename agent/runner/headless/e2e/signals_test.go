package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/runner"
)

// TestSignalsQuitInOrder: SIGINT, SIGTERM and SIGHUP abort the active run
// with the signal as its reason, let its command be killed and its marker
// be saved, and exit with 128 + the signal's number, in `steer run` and
// `steer rpc` alike.
func TestSignalsQuitInOrder(t *testing.T) {
	slow(t)
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
				s := newSandbox(t)
				var cmd *exec.Cmd
				var ch <-chan string
				var started string
				if mode == "run" {
					cmd = s.command("--state-dir", s.stateDir, "--pace", "0", "run", "run sleep 30")
					stderr, err := cmd.StderrPipe()
					if err != nil {
						t.Fatal(err)
					}
					ch, started = lines(stderr), "→ bash sleep 30"
					if err := cmd.Start(); err != nil {
						t.Fatal(err)
					}
				} else {
					cmd = s.command("--state-dir", s.stateDir, "--pace", "0", "rpc")
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
				last := lastSavedMessage(t, s)
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
	slow(t)
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("needs tmux")
	}
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			s := newSandbox(t)
			dir, stateDir := t.TempDir(), s.stateDir
			socket := fmt.Sprintf("steer-cli-e2e-%d-%d", os.Getpid(), sig)
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
			inner := fmt.Sprintf("echo $$ > %s; exec %s --state-dir %s --pace 0 --approve auto 2>%s", shQuote(pidFile), shQuote(steerBin), shQuote(stateDir), shQuote(errFile))
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
			data, err := os.ReadFile(pidFile)
			if err != nil {
				t.Fatal(err)
			}
			var pid int
			if _, err := fmt.Sscanf(string(data), "%d", &pid); err != nil {
				t.Fatal(err)
			}
			// The tool's row shows when the call streams, a moment before
			// its command is spawned.
			waitFor("the command's process", func() bool { return signalsSleeperUnder(pid, "30") })
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
			last := lastSavedMessage(t, s)
			if want := runner.AbortSignal(sig); last["stopReason"] != "aborted" || last["errorMessage"] != want {
				t.Errorf("last message: %v; want aborted with %q", last, want)
			}
		})
	}
}

// signalsSleeperUnder reports whether a process running `sleep secs`
// descends from pid (other tests may run the same sleep).
func signalsSleeperUnder(pid int, secs string) bool {
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, c := range cmdlines {
		b, err := os.ReadFile(c)
		if err != nil || strings.TrimRight(string(b), "\x00") != "sleep\x00"+secs {
			continue
		}
		child, _ := strconv.Atoi(filepath.Base(filepath.Dir(c)))
		for p := child; p > 1; p = signalsParent(p) {
			if p == pid {
				return true
			}
		}
	}
	return false
}

// signalsParent is the parent of process pid (the second field after the
// command's closing parenthesis in /proc/PID/stat), 0 when it is gone.
func signalsParent(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}
