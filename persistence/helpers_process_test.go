package persistence

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The multi-process tests run this test binary again as a child: the child
// runs TestHelperProcess, which acts out the role helperEnv names, talking to
// the parent in lines on stdin and stdout.
const (
	helperEnv        = "STEER_PERSISTENCE_HELPER" // the role; unset in a normal run
	helperDirEnv     = "STEER_PERSISTENCE_HELPER_DIR"
	helperSessionEnv = "STEER_PERSISTENCE_HELPER_SESSION"
	helperCountEnv   = "STEER_PERSISTENCE_HELPER_COUNT"
	helperVerboseEnv = "STEER_PERSISTENCE_HELPER_VERBOSE"
	helperPaceEnv    = "STEER_PERSISTENCE_HELPER_PACE" // a time.Duration between appends
)

// childTimeout only stops a wedged test; nothing waits for it to pass.
const childTimeout = 2 * time.Minute

// TestHelperProcess is not a test: it is the child of the multi-process
// tests (see helperRoles).
func TestHelperProcess(t *testing.T) {
	role := helperRoles[os.Getenv(helperEnv)]
	if role == nil {
		t.Skip("the child process of the multi-process tests")
	}
	in := bufio.NewScanner(os.Stdin)
	if err := role(os.Getenv(helperDirEnv), os.Getenv(helperSessionEnv), in); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// helperRoles are what a child can do. Each gets the state directory, a
// session id and its stdin; a returned error is reported as "error: …".
var helperRoles = map[string]func(dir, session string, in *bufio.Scanner) error{
	// open waits for "go", opens the directory, says "opened" and closes it.
	"open": func(dir, _ string, in *bufio.Scanner) error {
		if err := expectLine(in, "go"); err != nil {
			return err
		}
		s, err := Open(dir, Options{})
		if err != nil {
			return err
		}
		fmt.Println("opened")
		return s.Close()
	},
	// claim claims the existing session, says "claimed" and holds the claim
	// until its stdin closes (or it is killed).
	"claim": func(dir, session string, in *bufio.Scanner) error {
		s, err := Open(dir, Options{})
		if err != nil {
			return err
		}
		defer s.Close()
		if _, err := s.ClaimSession(context.Background(), session); err != nil {
			return err
		}
		fmt.Println("claimed")
		for in.Scan() {
		}
		return s.Close()
	},
	// append creates the session and begins a run on it, says "ready",
	// waits for "go", then appends COUNT messages of about 1 KB, one every
	// PACE (back to back without it), saying "appended N" after each when
	// VERBOSE is set, and ends with "durations" and the nanoseconds each
	// append took.
	"append": func(dir, session string, in *bufio.Scanner) error {
		n, err := strconv.Atoi(os.Getenv(helperCountEnv))
		if err != nil {
			return err
		}
		verbose := os.Getenv(helperVerboseEnv) != ""
		var pace time.Duration
		if p := os.Getenv(helperPaceEnv); p != "" {
			if pace, err = time.ParseDuration(p); err != nil {
				return err
			}
		}
		ctx := context.Background()
		s, err := Open(dir, Options{})
		if err != nil {
			return err
		}
		defer s.Close()
		if err := s.CreateSession(ctx, Session{ID: session, Workspace: "/work"}); err != nil {
			return err
		}
		if err := s.BeginRun(ctx, Run{ID: "run-" + session, SessionID: session}); err != nil {
			return err
		}
		fmt.Println("ready")
		if err := expectLine(in, "go"); err != nil {
			return err
		}
		took := make([]string, n)
		first := time.Now()
		for i := range n {
			if pace > 0 {
				// Pacing a load generator, not synchronising: a late append
				// goes at once.
				time.Sleep(time.Until(first.Add(time.Duration(i) * pace)))
			}
			start := time.Now()
			if err := s.AppendMessage(ctx, session, "run-"+session, typicalAssistant(i)); err != nil {
				return fmt.Errorf("append %d: %w", i+1, err)
			}
			took[i] = strconv.FormatInt(int64(time.Since(start)), 10)
			if verbose {
				fmt.Println("appended", i+1)
			}
		}
		fmt.Println("durations", strings.Join(took, ","))
		return s.Close()
	},
}

// expectLine reads one line from the parent and checks it.
func expectLine(in *bufio.Scanner, want string) error {
	if !in.Scan() {
		return fmt.Errorf("stdin ended before %q: %v", want, in.Err())
	}
	if got := in.Text(); got != want {
		return fmt.Errorf("got %q from the parent, want %q", got, want)
	}
	return nil
}

// child is a running helper process.
type child struct {
	tb     testing.TB
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string // its stdout, closed when it ends
	reaped bool
}

// startChild starts a helper in role on dir and session; env adds variables.
// The test kills it at the end if it is still running.
func startChild(tb testing.TB, role, dir, session string, env ...string) *child {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), helperEnv+"="+role, helperDirEnv+"="+dir, helperSessionEnv+"="+session)
	cmd.Env = append(cmd.Env, env...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	c := &child{tb: tb, cmd: cmd, stdin: stdin, lines: make(chan string, 64)}
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
	}()
	tb.Cleanup(func() {
		if !c.reaped {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return c
}

// pid is the child's process id.
func (c *child) pid() int { return c.cmd.Process.Pid }

// next returns the child's next line, failing the test when the child
// reports an error or ends instead.
func (c *child) next() string {
	c.tb.Helper()
	select {
	case line, ok := <-c.lines:
		if !ok {
			c.tb.Fatalf("child %d ended: %v", c.pid(), c.wait())
		}
		if strings.HasPrefix(line, "error:") {
			c.tb.Fatalf("child %d: %s", c.pid(), line)
		}
		return line
	case <-time.After(childTimeout):
		c.tb.Fatalf("child %d said nothing for %v", c.pid(), childTimeout)
	}
	return ""
}

// expect reads the next line and fails unless it is want.
func (c *child) expect(want string) {
	c.tb.Helper()
	if got := c.next(); got != want {
		c.tb.Fatalf("child %d said %q, want %q", c.pid(), got, want)
	}
}

// send writes one line to the child.
func (c *child) send(line string) {
	c.tb.Helper()
	if _, err := io.WriteString(c.stdin, line+"\n"); err != nil {
		c.tb.Fatal(err)
	}
}

// kill9 kills the child with SIGKILL and reaps it.
func (c *child) kill9() {
	c.tb.Helper()
	if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		c.tb.Fatal(err)
	}
	err := c.wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		c.tb.Fatalf("child %d after SIGKILL: %v", c.pid(), err)
	}
}

// wait closes the child's stdin, reads what is left of its output and reaps
// it.
func (c *child) wait() error {
	if c.reaped {
		return nil
	}
	c.stdin.Close()
	for range c.lines {
	}
	c.reaped = true
	return c.cmd.Wait()
}

// durations parses an append child's last line.
func (c *child) durations() []time.Duration {
	c.tb.Helper()
	line := c.next()
	rest, ok := strings.CutPrefix(line, "durations ")
	if !ok {
		c.tb.Fatalf("child %d said %q, want its durations", c.pid(), line)
	}
	var out []time.Duration
	for f := range strings.SplitSeq(rest, ",") {
		ns, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			c.tb.Fatal(err)
		}
		out = append(out, time.Duration(ns))
	}
	if err := c.wait(); err != nil {
		c.tb.Fatalf("child %d: %v", c.pid(), err)
	}
	return out
}
