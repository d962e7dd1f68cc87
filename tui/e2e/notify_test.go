package e2e

import (
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// pipeOutput records everything steer writes to its pane (pipe-pane), the
// escapes tmux itself would not show, into a file; read it with read.
type pipeOutput struct {
	t    *testing.T
	path string
}

func (p *pane) pipe() *pipeOutput {
	p.t.Helper()
	path := filepath.Join(p.t.TempDir(), "pane.out")
	p.tmux("pipe-pane", "-t", "steer:0", "-o", fmt.Sprintf("cat >> %q", path))
	return &pipeOutput{t: p.t, path: path}
}

func (o *pipeOutput) read() string {
	b, _ := os.ReadFile(o.path) // not there yet: nothing written
	return string(b)
}

// waitFor polls the recording until match finds something, failing after
// timeout; it returns the recording.
func (o *pipeOutput) waitFor(what string, match *regexp.Regexp, timeout time.Duration) string {
	o.t.Helper()
	for deadline := time.Now().Add(timeout); ; time.Sleep(20 * time.Millisecond) {
		out := o.read()
		if match.MatchString(out) {
			return out
		}
		if time.Now().After(deadline) {
			o.t.Fatalf("%s: nothing matching %q within %v; the pane wrote:\n%q", what, match, timeout, out)
		}
	}
}

// attachClient attaches a tmux client on a pty of its own: a client that
// has the focus, as a user's terminal window would.
func (p *pane) attachClient() {
	p.t.Helper()
	cmd := exec.Command("tmux", "-L", p.socket, "attach-session", "-t", "steer")
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	ptm, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		p.t.Fatalf("attaching a client: %v", err)
	}
	go func() { // drain the client's screen
		buf := make([]byte, 4096)
		for {
			if _, err := ptm.Read(buf); err != nil {
				return
			}
		}
	}()
	p.t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait(); ptm.Close() })
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(p.tmux("list-clients"), "steer"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			p.t.Fatal("the client did not attach")
		}
	}
}

// kittyNotification is the notification steer writes from tmux for kitty:
// OSC 99 inside tmux's passthrough (every ESC doubled).
var kittyNotification = regexp.MustCompile(`\x1bPtmux;\x1b\x1b\]99;i=steer:d=0;steer\x07\x1b\x1b\]99;i=steer:p=body;([^\x07]*)\x07\x1b\\`)

// TestNotificationOnlyWhenUnfocused: in tmux with focus-events on, a run
// that ends while the user looks at another window writes the
// notification; one that ends while steer's window is focused writes none.
func TestNotificationOnlyWhenUnfocused(t *testing.T) {
	p := startPane(t, fmt.Sprintf("exec env KITTY_WINDOW_ID=1 %q --state-dir %q --approve auto --pace 0", steerBin, t.TempDir()))
	p.tmux("set-option", "-g", "focus-events", "on")
	p.tmux("rename-session", "steer")
	p.tmux("new-window", "-d", "-t", "steer:1", "sleep 600")
	p.attachClient()
	out := p.pipe()

	p.typeText("hello", "Enter")
	p.waitFor("the focused run's answer", "You said: hello", 10*time.Second)

	p.tmux("select-window", "-t", "steer:1") // steer's pane loses the focus
	// A run that takes three seconds: tmux's focus report reaches steer
	// before it ends even on a loaded machine.
	p.tmux("send-keys", "-t", "steer:0", "-l", "run sleep 3")
	p.tmux("send-keys", "-t", "steer:0", "Enter")
	got := out.waitFor("the notification", kittyNotification, 10*time.Second)
	all := kittyNotification.FindAllStringSubmatch(got, -1)
	if len(all) != 1 {
		t.Fatalf("%d notifications, want exactly one: the focused run must have none; the pane wrote:\n%q", len(all), got)
	}
	if all[0][1] != "the run finished" {
		t.Errorf("the notification says %q", all[0][1])
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		s := p.tmux("capture-pane", "-p", "-t", "steer:0")
		if strings.Contains(s, "sleep 3") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("notified, but the second run is not shown:\n%s", s)
		}
	}
}

// osc52 is the clipboard sequence, its base64 captured.
var osc52 = regexp.MustCompile(`\x1b\]52;c;([A-Za-z0-9+/=]+)\x07`)

// TestCopyInTmux: /copy writes OSC 52 with the base64 of the answer's
// Markdown, and tmux (set-clipboard on) puts it in a paste buffer.
func TestCopyInTmux(t *testing.T) {
	p := startSteer(t)
	p.tmux("set-option", "-s", "set-clipboard", "on")
	p.tmux("rename-session", "steer")
	out := p.pipe()
	p.typeText("hello", "Enter")
	p.waitFor("the answer", "You said: hello", 10*time.Second)
	p.typeText("/copy")
	p.waitFor("the command typed", "/copy", 2*time.Second)
	p.typeText("", "Enter")
	p.waitFor("the confirmation", "copied the last answer", 5*time.Second)

	m := osc52.FindStringSubmatch(out.waitFor("the clipboard sequence", osc52, 5*time.Second))
	answer, err := base64.StdEncoding.DecodeString(m[1])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(answer), "You said: hello") || strings.Contains(string(answer), "\x1b") {
		t.Fatalf("the clipboard holds %q, want the answer's Markdown source", answer)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if got, _ := execTmux(p.socket, "show-buffer"); got == string(answer) {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("tmux's buffer holds %q, want %q", got, answer)
		}
	}
}
