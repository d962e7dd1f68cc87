package sandbox_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/steer-tui/steer/agent/tools/sandbox"
)

// helperEnv makes this test binary, started as a sandboxed program, run
// TestHelperProcess's network checks instead of the tests.
const helperEnv = "SANDBOX_TEST_HELPER"

// requireSupport skips the test, saying why, where this kernel cannot
// enforce p with s: the one case a sandbox test may not run.
func requireSupport(t *testing.T, s sandbox.Support, p sandbox.Policy) {
	t.Helper()
	if err := s.Check(p); err != nil {
		t.Skipf("this kernel cannot enforce the sandbox: %v", err)
	}
}

// run runs name with args under p in a fresh workspace and returns the
// command, its combined output and Run's error.
func run(t *testing.T, s sandbox.Support, p sandbox.Policy, sc sandbox.Scope, name string, args ...string) (*sandbox.Cmd, string, error) {
	t.Helper()
	if sc.Workspace == "" {
		sc.Workspace = t.TempDir()
	}
	if sc.TempDir == "" {
		sc.TempDir = t.TempDir()
	}
	c, err := sandbox.CommandWith(context.Background(), s, p, sc, name, args...)
	if err != nil {
		t.Fatalf("Command: %v", err)
	}
	var out bytes.Buffer
	c.Cmd.Dir, c.Cmd.Stdout, c.Cmd.Stderr = sc.Workspace, &out, &out
	err = c.Run()
	return c, out.String(), err
}

func TestCommandConfinesWrites(t *testing.T) {
	p := sandbox.Policy{Mode: sandbox.WorkspaceWrite}
	s := sandbox.Detect()
	requireSupport(t, s, p)
	// In /etc when the test runs as root, else where this user may write,
	// so that only the sandbox can stop the write.
	dir := "/etc"
	if unix.Access(dir, unix.W_OK) != nil {
		dir = t.TempDir()
	}
	outside := filepath.Join(dir, "steer-sandbox-test")
	os.Remove(outside)
	t.Cleanup(func() { os.Remove(outside) })

	c, out, err := run(t, s, p, sandbox.Scope{}, "bash", "-c", `touch ws && touch "$TMPDIR/tmp" && f=`+outside+`; touch "$f"`)
	if err == nil || out != "touch: cannot touch '"+outside+"': Permission denied\n" {
		t.Errorf("Run = %v with output %q, want touch to fail", err, out)
	}
	if _, err := os.Stat(outside); err == nil {
		t.Errorf("%s was created", outside)
	}
	if got, want := c.Blocked(out), []sandbox.Block{{Path: outside, Grant: dir}}; !equalBlocks(got, want) {
		t.Errorf("Blocked = %+v, want %+v", got, want)
	}
}

func TestCommandRefuses(t *testing.T) {
	p := sandbox.Policy{Mode: sandbox.WorkspaceWrite}
	if _, err := sandbox.CommandWith(context.Background(), sandbox.Support{}, p, sandbox.Scope{Workspace: t.TempDir(), TempDir: t.TempDir()},
		"true"); !errors.Is(err, sandbox.ErrUnenforceable) {
		t.Errorf("Command on a kernel without Landlock = %v, want ErrUnenforceable", err)
	}

	s := sandbox.Detect()
	requireSupport(t, s, p)
	// A path that vanishes between Command and Start: the child cannot
	// grant it, says so, and runs nothing.
	ws, extra := t.TempDir(), t.TempDir()
	c, err := sandbox.CommandWith(context.Background(), s, p, sandbox.Scope{Workspace: ws, TempDir: t.TempDir(), Extra: []string{extra}},
		"touch", filepath.Join(ws, "ran"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(extra); err != nil {
		t.Fatal(err)
	}
	err = c.Start()
	var refused *sandbox.RefusedError
	if !errors.As(err, &refused) || !strings.HasPrefix(refused.Reason, "cannot make "+extra+" writable: ") {
		t.Errorf("Start = %v, want a refusal naming %s", err, extra)
	}
	if _, err := os.Stat(filepath.Join(ws, "ran")); err == nil {
		t.Error("the program ran")
	}
}

// TestCommandNetwork reaches a server outside the sandbox, and one the
// sandboxed program starts itself on its loopback, by every way this
// kernel has of denying the network.
func TestCommandNetwork(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "reached") }))
	defer srv.Close()
	detected := sandbox.Detect()
	byLandlock := detected
	byLandlock.NetNamespace = false
	tests := []struct {
		name    string
		support sandbox.Support
		network sandbox.Network
		needNS  bool
		want    string // TestHelperProcess's report
	}{
		{name: "allowed", support: detected, network: sandbox.Allow, want: "outside: reached\nown loopback: ok\ncapabilities to pass on: none\n"},
		{name: "denied by a network namespace", support: detected, network: sandbox.Deny, needNS: true,
			want: "outside: connection refused\nown loopback: ok\ncapabilities to pass on: none\n"},
		{name: "denied by Landlock", support: byLandlock, network: sandbox.Deny,
			want: "outside: permission denied\nown loopback: permission denied\ncapabilities to pass on: none\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := sandbox.Policy{Mode: sandbox.WorkspaceWrite, Network: tt.network}
			requireSupport(t, tt.support, p)
			if tt.needNS && !tt.support.NetNamespace {
				t.Skipf("no network namespace here: %s", tt.support.NetNamespaceNote)
			}
			self, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			sc := sandbox.Scope{Workspace: t.TempDir(), TempDir: t.TempDir()}
			c, err := sandbox.CommandWith(context.Background(), tt.support, p, sc, self, "-test.run=^TestHelperProcess$")
			if err != nil {
				t.Fatal(err)
			}
			c.Cmd.Env = append(os.Environ(), helperEnv+"="+srv.Listener.Addr().String())
			var out bytes.Buffer
			c.Cmd.Stdout = &out
			if err := c.Run(); err != nil || out.String() != tt.want {
				t.Errorf("helper: %v, reported\n%s\nwant\n%s", err, out.String(), tt.want)
			}
		})
	}
}

// TestHelperProcess is the sandboxed program of TestCommandNetwork: it
// connects to the server outside and to one of its own on 127.0.0.1 (plain
// TCP, as Landlock's rules cover), and prints what happened, and whether
// the sandbox left it capabilities that a program it runs would inherit
// (the namespaces' CAP_NET_ADMIN must not be).
func TestHelperProcess(t *testing.T) {
	addr := os.Getenv(helperEnv)
	if addr == "" {
		return
	}
	fmt.Printf("outside: %s\n", fetch(addr))
	fmt.Printf("own loopback: %s\n", ownLoopback())
	fmt.Printf("capabilities to pass on: %s\n", inheritedCaps())
	os.Exit(0)
}

// fetch gets the server's body, or the error's last part.
func fetch(addr string) string {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return lastPart(err)
	}
	defer conn.Close()
	fmt.Fprint(conn, "GET / HTTP/1.0\r\n\r\n")
	var b bytes.Buffer
	b.ReadFrom(conn)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	return lines[len(lines)-1]
}

func ownLoopback() string {
	var lc net.ListenConfig
	lc.SetMultipathTCP(false) // Landlock's TCP rules do not cover MPTCP
	l, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return lastPart(err)
	}
	defer l.Close()
	go func() {
		if c, err := l.Accept(); err == nil {
			c.Close()
		}
	}()
	conn, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		return lastPart(err)
	}
	conn.Close()
	return "ok"
}

// inheritedCaps are this process's inheritable and ambient capability sets
// when either is not empty, else "none".
func inheritedCaps() string {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return err.Error()
	}
	var sets []string
	for line := range strings.Lines(string(status)) {
		if (strings.HasPrefix(line, "CapInh:") || strings.HasPrefix(line, "CapAmb:")) && strings.Trim(line[7:], "\t0\n") != "" {
			sets = append(sets, strings.TrimSpace(line))
		}
	}
	if len(sets) == 0 {
		return "none"
	}
	return strings.Join(sets, ", ")
}

func lastPart(err error) string {
	s := err.Error()
	return s[strings.LastIndex(s, ": ")+2:]
}

func equalBlocks(a, b []sandbox.Block) bool {
	return fmt.Sprint(a) == fmt.Sprint(b)
}

// BenchmarkTrue measures what the sandbox adds to starting a program: the
// test binary's start as the child (steer's own binary costs more, its
// package initialisation), Landlock, and the namespaces.
func BenchmarkTrue(b *testing.B) {
	ws, tmp := b.TempDir(), b.TempDir()
	for _, bc := range []struct {
		name   string
		policy sandbox.Policy
	}{
		{name: "workspace-write", policy: sandbox.Policy{Mode: sandbox.WorkspaceWrite}},
		{name: "workspace-write+network-deny", policy: sandbox.Policy{Mode: sandbox.WorkspaceWrite, Network: sandbox.Deny}},
	} {
		if err := sandbox.Detect().Check(bc.policy); err != nil {
			b.Logf("%s: %v", bc.name, err)
			continue
		}
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				c, err := sandbox.Command(context.Background(), bc.policy, sandbox.Scope{Workspace: ws, TempDir: tmp}, "true")
				if err != nil {
					b.Fatal(err)
				}
				if err := c.Run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command("true").Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
