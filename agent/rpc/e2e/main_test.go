package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/runner/steerbin"
)

// steerBin is the binary under test (see steerbin.Main).
var steerBin string

func TestMain(m *testing.M) { steerbin.Main(m, &steerBin) }

// steer returns a command for the binary with a private state directory,
// working in a temporary workspace.
func steer(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	return steerIn(t.TempDir(), t.TempDir(), append([]string{"--pace", "0"}, args...)...)
}

// steerIn returns a command for the binary on the given state directory and
// workspace, offline whatever the developer's environment holds: no keys and
// no config file (the workspace stands in for the config home).
func steerIn(stateDir, workspace string, args ...string) *exec.Cmd {
	cmd := exec.Command(steerBin, append([]string{"--state-dir", stateDir}, args...)...)
	cmd.Dir = workspace
	cmd.Env = append(os.Environ(), "STEER_STATE_DIR=", "ANTHROPIC_API_KEY=", "OPENAI_API_KEY=",
		"OPENROUTER_API_KEY=", "XDG_CONFIG_HOME="+workspace)
	return cmd
}

// rpcSession is a running `steer rpc` with its output read line by line.
type rpcSession struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan map[string]any
	seen  []map[string]any
}

func startRPC(t *testing.T, args ...string) *rpcSession {
	t.Helper()
	return startCmd(t, steer(t, append([]string{"rpc"}, args...)...))
}

// startCmd starts cmd, a `steer rpc`, and reads its output.
func startCmd(t *testing.T, cmd *exec.Cmd) *rpcSession {
	t.Helper()
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &rpcSession{t: t, cmd: cmd, in: in, lines: make(chan map[string]any, 1024)}
	go func() {
		defer close(s.lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			var v map[string]any
			if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
				v = map[string]any{"type": "unparseable", "line": sc.Text()}
			}
			s.lines <- v
		}
	}()
	t.Cleanup(func() {
		in.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return s
}

func (s *rpcSession) send(cmd string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, cmd+"\n"); err != nil {
		s.t.Fatal(err)
	}
}

// next returns the next line matching match, failing after timeout.
func (s *rpcSession) next(what string, timeout time.Duration, match func(map[string]any) bool) map[string]any {
	s.t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case v, ok := <-s.lines:
			if !ok {
				s.t.Fatalf("steer rpc exited before %s", what)
			}
			s.seen = append(s.seen, v)
			if match(v) {
				return v
			}
		case <-deadline:
			s.t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
	}
}

func ofType(typ string) func(map[string]any) bool {
	return func(v map[string]any) bool { return v["type"] == typ }
}

func response(command string) func(map[string]any) bool {
	return func(v map[string]any) bool { return v["type"] == "response" && v["command"] == command }
}

// count returns how many seen lines have type typ.
func (s *rpcSession) count(typ string) int {
	n := 0
	for _, v := range s.seen {
		if v["type"] == typ {
			n++
		}
	}
	return n
}

// assistantText joins the text blocks of a message object.
func assistantText(msg any) string {
	m, _ := msg.(map[string]any)
	blocks, _ := m["content"].([]any)
	var b strings.Builder
	for _, bl := range blocks {
		if c, ok := bl.(map[string]any); ok && c["type"] == "text" {
			b.WriteString(fmt.Sprint(c["text"]))
		}
	}
	return b.String()
}

func messageEnd(role string) func(map[string]any) bool {
	return func(v map[string]any) bool {
		if v["type"] != "message_end" {
			return false
		}
		m, _ := v["message"].(map[string]any)
		return m["role"] == role
	}
}
