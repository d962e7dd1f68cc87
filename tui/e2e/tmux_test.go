// Package e2e drives the real steer binary the way a user would, in tmux
// (typing, watching the screen, pressing Esc) and on a bare pty (what only a
// terminal shows: start-up queries, bursts of input). The binary runs on the
// offline scripted provider in a temporary state directory.
package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/mcp/mcptest"
	"github.com/steer-tui/steer/agent/runner/steerbin"
)

// steerBin is the binary under test (see steerbin.Main).
var steerBin string

func TestMain(m *testing.M) {
	mcptest.MaybeServe() // the MCP server a test starts as a child (mcp_test.go)
	steerbin.Main(m, &steerBin)
}

// requireTmux skips a test that needs tmux where it is not installed.
func requireTmux(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (apt-get install -y tmux)")
	}
}

var sockets atomic.Int64

// pane is steer running in its own tmux server.
type pane struct {
	t      *testing.T
	socket string
}

// startSteer runs steer in a 120×40 tmux pane on a private socket, in a
// temporary workspace and state directory, and waits for its first screen.
// Tools run without asking (--approve auto): these tests are about what
// happens while they run; startSteerAsking keeps the TUI's default.
func startSteer(t *testing.T) *pane {
	t.Helper()
	return startPane(t, fmt.Sprintf("exec %q --state-dir %q --approve auto", steerBin, t.TempDir()))
}

// startSteerAsking is startSteer with the TUI's default approval, ask.
func startSteerAsking(t *testing.T) *pane {
	t.Helper()
	return startPane(t, fmt.Sprintf("exec %q --state-dir %q", steerBin, t.TempDir()))
}

// startSteerInShell is startSteer with a shell around steer, which stays
// when steer ends and then says "steer exited STATUS".
func startSteerInShell(t *testing.T) *pane {
	t.Helper()
	return startPane(t, fmt.Sprintf("%q --state-dir %q --approve auto; echo \"steer exited $?\"; exec sleep 600", steerBin, t.TempDir()))
}

func startPane(t *testing.T, shell string) *pane {
	t.Helper()
	return startPaneShowing(t, shell, "scripted/echo")
}

// startPaneShowing is startPane for a first screen that shows first (the
// model a config chose).
func startPaneShowing(t *testing.T, shell, first string) *pane {
	t.Helper()
	requireTmux(t)
	p := &pane{t: t, socket: fmt.Sprintf("steer-e2e-%d-%d", os.Getpid(), sockets.Add(1))}
	p.tmux("-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40",
		"-c", t.TempDir(), "-e", "TERM=xterm-256color", "-e", "STEER_STATE_DIR=", "-e", "COLORFGBG=15;0",
		// Offline whatever the developer's environment holds: no keys, no config file.
		"-e", "ANTHROPIC_API_KEY=", "-e", "OPENAI_API_KEY=", "-e", "OPENROUTER_API_KEY=",
		"-e", "XDG_CONFIG_HOME="+t.TempDir(), shell)
	pid, err := strconv.Atoi(strings.TrimSpace(p.tmux("display-message", "-p", "#{pane_pid}")))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = exec.Command("tmux", "-L", p.socket, "kill-server").Run()
		// Killing the server hangs up on steer, which still closes its store:
		// the temporary directories go only after it has. The pane's process
		// leads a session that steer is in, started by a shell or not.
		waitSessionGone(t, pid, 10*time.Second)
	})
	p.waitFor("the first screen", first, 10*time.Second)
	return p
}

// waitSessionGone waits until no process is left in the session sid,
// failing after timeout.
func waitSessionGone(t *testing.T, sid int, timeout time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(timeout); sessionAlive(sid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Errorf("processes of session %d still run %v after their terminal closed", sid, timeout)
			return
		}
	}
}

// sessionAlive reports whether a process of session sid still runs (or has
// not been reaped): the sixth field of /proc/PID/stat, after the command's
// closing parenthesis.
func sessionAlive(sid int) bool {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil {
			continue // gone meanwhile
		}
		rest := string(b[bytes.LastIndexByte(b, ')')+1:])
		if f := strings.Fields(rest); len(f) > 3 && f[3] == strconv.Itoa(sid) {
			return true
		}
	}
	return false
}

func (p *pane) tmux(args ...string) string {
	p.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", p.socket}, args...)...).CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (p *pane) screen() string { return p.tmux("capture-pane", "-p") }

// typeText types s literally, then presses the keys named (tmux key names).
func (p *pane) typeText(s string, keys ...string) {
	p.t.Helper()
	if s != "" {
		p.tmux("send-keys", "-l", s)
	}
	if len(keys) > 0 {
		p.tmux(append([]string{"send-keys"}, keys...)...)
	}
}

// waitFor polls the screen until it shows text, failing after timeout with
// the last screen.
func (p *pane) waitFor(what, text string, timeout time.Duration) time.Duration {
	p.t.Helper()
	start := time.Now()
	var last string
	for time.Since(start) < timeout {
		if last = p.screen(); strings.Contains(last, text) {
			return time.Since(start)
		}
		time.Sleep(20 * time.Millisecond) // poll interval, not a wait for the app
	}
	p.t.Fatalf("%s: %q did not appear within %v; the screen:\n%s", what, text, timeout, last)
	return 0
}

func TestHelloAnswers(t *testing.T) {
	p := startSteer(t)
	p.typeText("hello", "Enter")
	p.waitFor("the answer", "You said: hello", 10*time.Second)
}

func TestSteeringWhileAToolRuns(t *testing.T) {
	p := startSteer(t)
	p.typeText("run sleep 3", "Enter")
	p.waitFor("the tool to start", "bash sleep 3", 10*time.Second)
	p.typeText("focus on tests", "Enter")
	p.waitFor("the queue strip", "steer     › focus on tests", 2*time.Second)
	if s := p.screen(); strings.Contains(s, "Steering received") {
		t.Fatalf("the steering was answered before the tool ended:\n%s", s)
	}
	p.waitFor("the steered answer", "Steering received: focus on tests", 15*time.Second)
	if s := p.screen(); !strings.Contains(s, "✓ bash sleep 3 · exit 0") {
		t.Fatalf("the tool did not finish normally:\n%s", s)
	}
}

// TestEscInterruptsWithinASecond: within a second of Esc the transcript
// shows the aborted marker and the bar has left "working" for "idle". The
// marker comes with the run's last message and the bar changes at the run's
// end (agent_end) just after it, often in the next frame, so the test waits
// for each rather than reading the screen once as the marker shows.
func TestEscInterruptsWithinASecond(t *testing.T) {
	const within = time.Second
	p := startSteer(t)
	p.typeText("run sleep 30", "Enter")
	p.waitFor("the tool to start", "bash sleep 30", 10*time.Second)
	esc := time.Now()
	p.typeText("", "Escape")
	p.waitFor("the interrupt", "⏹ interrupted", within)
	t.Logf("the marker shown %v after Esc", time.Since(esc))
	p.waitGone("the run's end", "working", within-time.Since(esc))
	t.Logf("the run ended %v after Esc", time.Since(esc))
	if s := p.screen(); !strings.Contains(s, "idle") {
		t.Fatalf("the bar does not say idle after the run:\n%s", s)
	}
}

func TestCtrlCTwiceQuits(t *testing.T) {
	p := startSteer(t)
	p.typeText("unsent words")
	p.typeText("", "C-c")
	p.waitFor("the hint", "again to quit", 2*time.Second)
	p.typeText("", "C-c", "C-c")
	deadline := time.Now().Add(5 * time.Second)
	for exec.Command("tmux", "-L", p.socket, "has-session").Run() == nil {
		if time.Now().After(deadline) {
			t.Fatalf("steer did not quit; the screen:\n%s", p.screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestAltUpTakesTheNewestItemBack(t *testing.T) {
	p := startSteer(t)
	p.typeText("run sleep 5", "Enter")
	p.waitFor("the tool to start", "bash sleep 5", 10*time.Second)
	p.typeText("first note", "Enter")
	p.typeText("second note", "Enter")
	p.waitFor("both queued", "steer     › second note", 2*time.Second)
	p.typeText("", "M-Up")
	// "› second note" also matches the strip's line, so wait for the
	// editor's own line (it starts the line) and the strip without it.
	deadline := time.Now().Add(2 * time.Second)
	for {
		s := p.screen()
		inEditor := strings.Contains("\n"+s, "\n› second note")
		if inEditor && !strings.Contains(s, "steer     › second note") && strings.Contains(s, "steer     › first note") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the strip did not hand only the newest item to the editor:\n%s", s)
		}
		time.Sleep(20 * time.Millisecond) // poll interval, not a wait for the app
	}
}

// execTmux runs a tmux command on socket that may fail (list-buffers with
// no buffer does).
func execTmux(socket string, args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-L", socket}, args...)...).CombinedOutput()
	return string(out), err
}
