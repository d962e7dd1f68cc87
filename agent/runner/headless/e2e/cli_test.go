package e2e

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/runner/headless"
)

// help is the help text of command ("" is steer's own).
func help(t *testing.T, command string) string {
	t.Helper()
	text, ok := headless.Help(command)
	if !ok {
		t.Fatalf("no help for %q", command)
	}
	return text
}

func TestVersionAndHelp(t *testing.T) {
	s := newSandbox(t)
	tests := []struct {
		args []string
		want string // a prefix of stdout
	}{
		{[]string{"--version"}, "steer "},
		{[]string{"version"}, "steer "},
		{[]string{"--help"}, help(t, "")},
		{[]string{"help"}, help(t, "")},
		{[]string{"run", "--help"}, help(t, "run")},
		{[]string{"run", "-h"}, help(t, "run")},
		{[]string{"rpc", "--help"}, help(t, "rpc")},
		{[]string{"sessions", "--help"}, help(t, "sessions")},
		{[]string{"sessions", "show", "--help"}, help(t, "sessions")},
		{[]string{"help", "run"}, help(t, "run")},
		{[]string{"help", "sessions"}, help(t, "sessions")},
	}
	for _, tt := range tests {
		code, stdout, stderr := s.run(nil, tt.args...)
		if code != headless.ExitOK || !strings.HasPrefix(stdout, tt.want) || stderr != "" {
			t.Errorf("steer %s: exit %d, stdout %.60q, stderr %q", strings.Join(tt.args, " "), code, stdout, stderr)
		}
	}
	if code, _, stderr := s.run(nil, "help", "nope"); code != headless.ExitUsage || !strings.Contains(stderr, `no help for "nope"`) {
		t.Errorf("steer help nope: exit %d, %q", code, stderr)
	}
}

// TestUsageErrors: mistakes on the command line are one line and exit 2,
// before anything is opened.
func TestUsageErrors(t *testing.T) {
	s := newSandbox(t)
	tests := []struct {
		args  []string
		stdin string
		want  string
	}{
		{[]string{"run", ""}, "", "steer: the prompt is empty\n"},
		{[]string{"run", "  ", " "}, "", "steer: the prompt is empty\n"},
		{[]string{"run"}, " \n", "steer: the prompt is empty\n"},
		{[]string{"run", "--theme", "dark", "hi"}, "", "steer: --theme applies to the terminal UI only\n"},
		{[]string{"version", "x"}, "", "steer: version takes no arguments\n"},
	}
	themes := filepath.Join(filepath.Dir(s.workspace), "config", "steer", "themes")
	tests = append(tests, struct {
		args  []string
		stdin string
		want  string
	}{[]string{"--theme", "blue"}, "", "steer: --theme: unknown theme \"blue\" (want dark, light, auto or the name of a file in " + themes + ")\n"})
	for _, tt := range tests {
		code, _, stderr := s.run(strings.NewReader(tt.stdin), tt.args...)
		if code != headless.ExitUsage || stderr != tt.want {
			t.Errorf("steer %q: exit %d, stderr %q; want 2, %q", tt.args, code, stderr, tt.want)
		}
	}
}

// TestTUINeedsATerminal: the terminal UI without a terminal is a usage
// error that points at the headless modes.
func TestTUINeedsATerminal(t *testing.T) {
	s := newSandbox(t)
	code, stdout, stderr := s.run(nil, "--pace", "0")
	want := "steer: the terminal UI needs a terminal; use 'steer run PROMPT' or 'steer rpc' from scripts\n"
	if code != headless.ExitUsage || stderr != want || stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2, %q", code, stdout, stderr, want)
	}
}

// TestRunRefusesATooLargePrompt: the config's agent.maxInputBytes bounds
// the prompt; a larger one from stdin is refused after reading the limit
// and a byte, and nothing is stored.
func TestRunRefusesATooLargePrompt(t *testing.T) {
	s := newSandbox(t)
	cfg := writeFile(t, "config.json", `{"agent": {"maxInputBytes": 1024}}`)

	cmd := s.command("--config", cfg, "--state-dir", s.stateDir, "run")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	buffered := pipeCapacity(w)
	var written atomic.Int64 // an endless stdin, counting what steer took
	var stderr strings.Builder
	cmd.Stdin, cmd.Stderr = r, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.Close()
	go func() {
		chunk := []byte(strings.Repeat("x", 1024))
		for written.Load() < 1<<30 {
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	}()
	code := exitCode(t, cmd, time.Minute)
	w.Close()
	if code != headless.ExitUsage || stderr.String() != "steer: the prompt on stdin is over the limit of 1.0 KiB (agent.maxInputBytes)\n" {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	// What steer did not read is at most what the pipe holds.
	if read := written.Load() - int64(buffered); read > 64<<10 {
		t.Errorf("read at least %d bytes of stdin", read)
	}

	code, _, errs := s.run(nil, "--config", cfg, "--state-dir", s.stateDir, "run", strings.Repeat("y", 1025))
	if code != headless.ExitUsage || !strings.Contains(errs, "over the limit of 1.0 KiB") {
		t.Errorf("argument: exit %d, stderr %q", code, errs)
	}
	if code, stdout, _ := s.run(nil, "--state-dir", s.stateDir, "sessions"); code != headless.ExitOK || !strings.Contains(stdout, "No saved sessions") {
		t.Errorf("sessions after refused prompts: %q", stdout)
	}
}

// pipeCapacity is how much the pipe written through w holds unread; on
// Linux it is made one page first, so that the bound on what steer reads
// stays tight.
func pipeCapacity(w *os.File) int {
	const setPipeSize, getPipeSize = 1031, 1032 // F_SETPIPE_SZ, F_GETPIPE_SZ
	if runtime.GOOS == "linux" {
		fd := w.Fd()
		_, _, _ = syscall.Syscall(syscall.SYS_FCNTL, fd, setPipeSize, uintptr(os.Getpagesize()))
		if n, _, errno := syscall.Syscall(syscall.SYS_FCNTL, fd, getPipeSize, 0); errno == 0 {
			return int(n)
		}
	}
	return 64 << 10 // the usual size elsewhere
}
