package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"
	"github.com/muesli/termenv"

	"github.com/steer-tui/steer/agent"
)

// ptyRun is steer on a pty whose other end is the test: a terminal that
// answers no queries at all (no OSC 11, no cursor position, no device
// attributes), which is what made the first frame wait five seconds.
type ptyRun struct {
	t        *testing.T
	cmd      *exec.Cmd
	ptm      *os.File
	stateDir string
	started  time.Time

	mu   sync.Mutex
	out  bytes.Buffer
	done chan struct{} // closed when the output ends
}

// offlineEnv is the environment of a steer under test: offline whatever the
// developer's environment holds, no config file, no colour hints. CI goes
// too: termenv treats any CI variable as "not a terminal" and drops colour.
func offlineEnv(t *testing.T) []string {
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "TERM", "COLORFGBG", "COLORTERM", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "CI",
			"STEER_STATE_DIR", "XDG_CONFIG_HOME",
			"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENROUTER_API_KEY":
		default:
			env = append(env, kv)
		}
	}
	return append(env, "TERM=xterm-256color", "XDG_CONFIG_HOME="+t.TempDir())
}

func startPTY(t *testing.T, args ...string) *ptyRun {
	t.Helper()
	return startPTYIn(t, t.TempDir(), args...)
}

// startPTYIn is startPTY in workspace dir.
func startPTYIn(t *testing.T, dir string, args ...string) *ptyRun {
	t.Helper()
	r := &ptyRun{t: t, stateDir: t.TempDir(), done: make(chan struct{})}
	r.cmd = exec.Command(steerBin, append([]string{"--state-dir", r.stateDir, "--pace", "0"}, args...)...)
	r.cmd.Dir = dir
	r.cmd.Env = offlineEnv(t)
	r.started = time.Now()
	ptm, err := pty.StartWithSize(r.cmd, &pty.Winsize{Rows: 30, Cols: 100})
	if err != nil {
		t.Fatalf("starting steer on a pty: %v", err)
	}
	r.ptm = ptm
	go func() {
		defer close(r.done)
		buf := make([]byte, 4096)
		for {
			n, err := ptm.Read(buf)
			r.mu.Lock()
			r.out.Write(buf[:n])
			r.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = r.cmd.Process.Kill()
		_ = r.cmd.Wait()
		ptm.Close()
	})
	return r
}

// screenText is everything steer wrote, without escape sequences.
func (r *ptyRun) screenText() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return ansi.Strip(r.out.String())
}

func (r *ptyRun) raw() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.out.String()
}

// waitText polls the output until it contains text, failing after timeout.
func (r *ptyRun) waitText(what, text string, timeout time.Duration) time.Duration {
	r.t.Helper()
	start := time.Now()
	for !strings.Contains(r.screenText(), text) {
		if time.Since(start) > timeout {
			r.t.Fatalf("%s: %q not shown within %v; output:\n%q", what, text, timeout, r.raw())
		}
		time.Sleep(10 * time.Millisecond) // poll interval, not a wait for the app
	}
	return time.Since(start)
}

func (r *ptyRun) write(s string) {
	r.t.Helper()
	if _, err := r.ptm.Write([]byte(s)); err != nil {
		r.t.Fatal(err)
	}
}

// quit presses Ctrl+C twice and waits for steer to end.
func (r *ptyRun) quit() {
	r.t.Helper()
	r.write("\x03\x03")
	exited := make(chan error, 1)
	go func() { exited <- r.cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		r.t.Fatalf("steer did not quit; output:\n%q", r.raw())
	}
}

// firstFrameWithin bounds the first frame on a silent terminal: half of
// the wait of termenv's terminal query (termenv.OSCTimeout, 5 s), which is
// what the frame used to wait for. The frame needs theme.QueryTimeout
// (100 ms) and start-up, measured at up to 0.7 s on a loaded 2-core
// machine: a bound of a second failed there.
const firstFrameWithin = termenv.OSCTimeout / 2

// TestFirstFrameOnASilentTerminal: the first frame (the editor and the
// status line naming the model) does not wait for an answer to the
// start-up queries from a terminal that answers none of them.
func TestFirstFrameOnASilentTerminal(t *testing.T) {
	r := startPTY(t)
	r.waitText("the first frame", "scripted/echo", 2*termenv.OSCTimeout)
	total := time.Since(r.started)
	t.Logf("first frame %v after start", total)
	if total > firstFrameWithin {
		t.Fatalf("the first frame took %v on a silent terminal, want under %v: it waited for the terminal", total, firstFrameWithin)
	}
	if !strings.Contains(r.raw(), "\x1b[38;5;") {
		t.Errorf("the frame has no 256-colour styles: the colour profile was lost; output:\n%q", r.raw())
	}
	r.quit()
}

// TestInitOrderDefersTheColourQuery checks, in the built binary, that the
// package hiding TERM from Bubble Tea's init is initialised before Bubble
// Tea and that package theme, which restores it, comes after.
func TestInitOrderDefersTheColourQuery(t *testing.T) {
	cmd := exec.Command(steerBin, "help")
	cmd.Env = append(offlineEnv(t), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("steer help: %v\n%s", err, stderr.String())
	}
	order := map[string]int{}
	sc := bufio.NewScanner(&stderr)
	for i := 0; sc.Scan(); i++ {
		if f := strings.Fields(sc.Text()); len(f) > 1 && f[0] == "init" {
			order[f[1]] = i
		}
	}
	const (
		guard = "github.com/steer-tui/steer/tui/theme/internal/deferquery"
		tea   = "github.com/charmbracelet/bubbletea"
		theme = "github.com/steer-tui/steer/tui/theme"
	)
	g, okG := order[guard]
	b, okB := order[tea]
	th, okT := order[theme]
	if !okG || !okB || !okT {
		t.Fatalf("inittrace lacks a package (guard %v, bubbletea %v, theme %v):\n%s", okG, okB, okT, stderr.String())
	}
	if !(g < b && b < th) {
		t.Fatalf("init order: deferquery %d, bubbletea %d, theme %d; want them in that order", g, b, th)
	}
}

// TestBurstsAreStoredAsTyped writes each phrase and its Enter in one write,
// as fast typing or dictation delivers them, and checks that the session
// stores them exactly.
func TestBurstsAreStoredAsTyped(t *testing.T) {
	phrases := []string{"pick up the phone", "say enter now", "go left then right", "press esc or ctrl+c"}
	r := startPTY(t)
	r.waitText("the first frame", "scripted/echo", 5*time.Second)
	for i, p := range phrases {
		r.write(p + "\r")
		// Wait for the answer, so that the next phrase is a prompt too.
		deadline := time.Now().Add(15 * time.Second)
		for msgs := stored(t, r.stateDir); len(msgs) < 2*(i+1) || msgs[len(msgs)-1].Role != agent.RoleAssistant; msgs = stored(t, r.stateDir) {
			if time.Now().After(deadline) {
				t.Fatalf("%q was not answered; stored %q; output:\n%q", p, userTexts(msgs), r.raw())
			}
			time.Sleep(50 * time.Millisecond) // poll interval
		}
	}
	r.quit()
	if got := userTexts(stored(t, r.stateDir)); strings.Join(got, "|") != strings.Join(phrases, "|") {
		t.Fatalf("stored %q, want %q", got, phrases)
	}
}

func userTexts(msgs []agent.Message) []string {
	var texts []string
	for _, m := range msgs {
		if m.Role == agent.RoleUser {
			texts = append(texts, m.TextContent())
		}
	}
	return texts
}

// stored reads the messages of the newest session in dir with `steer
// sessions --json` and `steer sessions show ID --json`, which open the
// database read-only while another steer holds it.
func stored(t *testing.T, dir string) []agent.Message {
	t.Helper()
	out, err := exec.Command(steerBin, "--state-dir", dir, "sessions", "--json").Output()
	if err != nil {
		t.Fatalf("steer sessions: %v", err)
	}
	var sessions []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(out, &sessions); err != nil {
		t.Fatalf("steer sessions --json: %v\n%s", err, out)
	}
	if len(sessions) == 0 {
		return nil
	}
	out, err = exec.Command(steerBin, "--state-dir", dir, "sessions", "show", sessions[0].ID, "--json").Output()
	if err != nil {
		t.Fatalf("steer sessions show: %v", err)
	}
	var msgs []agent.Message
	if err := json.Unmarshal(out, &msgs); err != nil {
		t.Fatalf("steer sessions show --json: %v\n%s", err, out)
	}
	return msgs
}
