package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	ossandbox "github.com/steer-tui/steer/agent/tools/sandbox"
)

// The OS sandbox for commands (issue 31) through the binary:
// tools.sandbox workspace-write lets the kernel refuse a write outside the
// workspace, and network deny a connection to a server outside.

// requireSandbox skips, saying why, where this kernel cannot confine
// writes; /permissions then says "no sandbox" (TestNoSandboxIsSaid).
func requireSandbox(t *testing.T, p ossandbox.Policy) {
	t.Helper()
	if err := ossandbox.Detect().Check(p); err != nil {
		t.Skipf("this kernel cannot sandbox commands: %v", err)
	}
}

func TestSandboxStopsWritesOutsideTheWorkspace(t *testing.T) {
	requireSandbox(t, ossandbox.Policy{Mode: ossandbox.WorkspaceWrite})
	const target = "/etc/steer-test"
	os.Remove(target)
	cfg := writeFile(t, "config.json", `{"tools": {"sandbox": {"mode": "workspace-write"}}}`)
	s := newSandbox(t)
	r := callTool(t, s, []string{"--config", cfg}, "bash", map[string]any{"command": "touch " + target})
	if !r.isError || !strings.Contains(r.result, "blocked by the sandbox: write to "+target) {
		t.Errorf("touch %s: %q (error %v), want the sandbox's message", target, r.result, r.isError)
	}
	if fileExists(target) {
		os.Remove(target)
		t.Fatalf("%s exists: the sandbox let the write through", target)
	}
	r = callTool(t, s, []string{"--config", cfg}, "bash", map[string]any{"command": "touch x && echo made"})
	if r.isError || !fileExists(filepath.Join(s.workspace, "x")) {
		t.Errorf("touch x in the workspace: %q (error %v)", r.result, r.isError)
	}
	code, stdout, stderr := s.run(nil, "--config", cfg, "inspect", "permissions")
	if code != 0 || !strings.Contains(stdout, "writes: workspace + temp (Landlock ABI") {
		t.Errorf("inspect permissions: exit %d, %s%s", code, stdout, stderr)
	}
}

func TestSandboxDeniesTheNetwork(t *testing.T) {
	requireSandbox(t, ossandbox.Policy{Mode: ossandbox.WorkspaceWrite, Network: ossandbox.Deny})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "reached-the-server") }))
	defer srv.Close()
	for _, tc := range []struct {
		network string
		reached bool
	}{{"allow", true}, {"deny", false}} {
		t.Run(tc.network, func(t *testing.T) {
			cfg := writeFile(t, "config.json", `{"tools": {"sandbox": {"mode": "workspace-write", "network": "`+tc.network+`"}}}`)
			r := callTool(t, newSandbox(t), []string{"--config", cfg}, "bash", map[string]any{"command": "curl -sS --max-time 5 " + srv.URL})
			if got := strings.Contains(r.result, "reached-the-server"); got != tc.reached {
				t.Errorf("network %s: reached %v: %q", tc.network, got, r.result)
			}
			if !tc.reached && !strings.Contains(r.result, "blocked by the sandbox: network") {
				t.Errorf("network deny: %q, want the sandbox's message", r.result)
			}
		})
	}
}

// TestNoSandboxIsSaid: with the sandbox off, /permissions says there is
// none rather than claiming one.
func TestNoSandboxIsSaid(t *testing.T) {
	code, stdout, stderr := newSandbox(t).run(nil, "inspect", "permissions")
	if code != 0 || !strings.Contains(stdout, "no sandbox") {
		t.Errorf("inspect permissions: exit %d, %s%s", code, stdout, stderr)
	}
}
