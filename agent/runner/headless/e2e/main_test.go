package e2e

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/mcp/mcptest"
	"github.com/steer-tui/steer/agent/runner/steerbin"
)

// steerBin is the binary under test (see steerbin.Main).
var steerBin string

// TestMain serves as an MCP test server when steer runs this binary as one
// (mcptest.MaybeServe), else builds steer and tests it.
func TestMain(m *testing.M) {
	mcptest.MaybeServe()
	steerbin.Main(m, &steerBin)
}

// slow skips a test that takes seconds under -short.
func slow(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("takes seconds")
	}
}

// sandbox is a private workspace, state directory and config home: steer
// runs offline in it whatever the developer's environment holds (no keys,
// no config file, STEER_STATE_DIR pointing at the sandbox's state).
type sandbox struct {
	t         *testing.T
	workspace string
	stateDir  string
	env       []string
}

func newSandbox(t *testing.T) *sandbox {
	t.Helper()
	dir := t.TempDir()
	s := &sandbox{t: t, workspace: mkdir(t, dir, "workspace"), stateDir: mkdir(t, dir, "state")}
	s.env = append(os.Environ(), "STEER_STATE_DIR="+s.stateDir, "ANTHROPIC_API_KEY=", "OPENAI_API_KEY=",
		"OPENROUTER_API_KEY=", "XDG_CONFIG_HOME="+mkdir(t, dir, "config"))
	return s
}

// setenv adds a variable to the environment of the sandbox's commands.
func (s *sandbox) setenv(key, value string) { s.env = append(s.env, key+"="+value) }

// command is steer with args (exactly those) in the sandbox.
func (s *sandbox) command(args ...string) *exec.Cmd {
	cmd := exec.Command(steerBin, args...)
	cmd.Dir, cmd.Env = s.workspace, s.env
	return cmd
}

// run runs steer to its end with stdin (nil: empty).
func (s *sandbox) run(stdin io.Reader, args ...string) (code int, stdout, stderr string) {
	s.t.Helper()
	cmd := s.command(args...)
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	var out, errb strings.Builder
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &out, &errb
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	return exitCode(s.t, cmd, time.Minute), out.String(), errb.String()
}

func mkdir(t *testing.T, parts ...string) string {
	t.Helper()
	dir := filepath.Join(parts...)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
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
func lastSavedMessage(t *testing.T, s *sandbox) map[string]any {
	t.Helper()
	out, err := s.command("sessions", "--json").Output()
	if err != nil {
		t.Fatalf("steer sessions: %v", err)
	}
	var list []struct{ ID string }
	if err := json.Unmarshal(out, &list); err != nil || len(list) != 1 {
		t.Fatalf("sessions: %s (%v)", out, err)
	}
	out, err = s.command("sessions", "show", list[0].ID, "--json").Output()
	if err != nil {
		t.Fatalf("steer sessions show: %v", err)
	}
	var msgs []map[string]any
	if err := json.Unmarshal(out, &msgs); err != nil || len(msgs) == 0 {
		t.Fatalf("transcript: %s (%v)", out, err)
	}
	return msgs[len(msgs)-1]
}

// shQuote quotes s for sh.
func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
