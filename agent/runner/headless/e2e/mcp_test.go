package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/mcp/mcptest"
)

// mcpConfig is a config file whose mcpServers run this test binary as an
// MCP server in each mode given, by name; the children append their pids
// to pidFile.
func mcpConfig(t *testing.T, pidFile string, modes map[string]string) string {
	t.Helper()
	servers := map[string]any{}
	for name, mode := range modes {
		cmd, args, env := mcptest.Command(mode)
		env[mcptest.PIDFileEnv] = pidFile
		servers[name] = map[string]any{"command": cmd, "args": args, "env": env, "timeoutSeconds": 5}
	}
	raw, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, "config.json", string(raw))
}

// noChildLeft fails if a pid in pidFile is still a live process.
func noChildLeft(t *testing.T, pidFile string) {
	t.Helper()
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("no server was started: %v", err)
	}
	for _, f := range strings.Fields(string(data)) {
		pid, _ := strconv.Atoi(f)
		if alive(pid) {
			t.Errorf("the MCP server %d outlived steer", pid)
		}
	}
}

// alive reports whether pid is a process that has not exited (a zombie
// waiting for init to reap it has).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(stat), ") ")
	return !strings.HasPrefix(rest, "Z")
}

// TestRunCallsAnMCPTool: the scripted model's call reaches the server and
// its real result comes back, in text and in --json; a server that exits
// beside it is reported and the run answers; no child is left.
func TestRunCallsAnMCPTool(t *testing.T) {
	s := newSandbox(t)
	pids := filepath.Join(t.TempDir(), "pids")
	cfg := mcpConfig(t, pids, map[string]string{"srv": mcptest.ModeOK, "broken": mcptest.ModeExit})
	code, out, errOut := s.run(nil, "--config", cfg, "--pace", "0", "run", `call mcp__srv__echo {"text":"hi from mcp"}`)
	if code != 0 || !strings.Contains(out, "hi from mcp") || !strings.Contains(errOut, "← mcp__srv__echo ok") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	code, out, _ = s.run(nil, "--config", cfg, "--pace", "0", "--json", "run", `call mcp__srv__fail {}`)
	if code != 0 || !strings.Contains(out, `"isError":true`) || !strings.Contains(out, "it broke") {
		t.Fatalf("--json: exit %d\n%s", code, out)
	}
	noChildLeft(t, pids)

	code, out, errOut = s.run(nil, "--config", cfg, "mcp", "list", "--json")
	var list struct {
		Servers []struct{ Name, State, Error string }
	}
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil {
		t.Fatalf("mcp list: exit %d, %v\n%s\n%s", code, err, out, errOut)
	}
	states := map[string]string{}
	for _, srv := range list.Servers {
		states[srv.Name] = srv.State
	}
	if states["srv"] != "ready" || states["broken"] != "failed" {
		t.Errorf("mcp list: %+v", list.Servers)
	}
	code, out, _ = s.run(nil, "--config", cfg, "mcp", "tools", "srv")
	if code != 0 || !strings.Contains(out, "mcp__srv__echo") {
		t.Errorf("mcp tools: exit %d\n%s", code, out)
	}
}

// TestProjectServersNeedTrust: a workspace's .mcp.json does not start
// without --trust-project, and does with it.
func TestProjectServersNeedTrust(t *testing.T) {
	s := newSandbox(t)
	cmd, args, env := mcptest.Command(mcptest.ModeOK)
	raw, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"repo": map[string]any{"command": cmd, "args": args, "env": env}}})
	if err := os.WriteFile(filepath.Join(s.workspace, ".mcp.json"), raw, 0o600); err != nil {
		t.Fatal(err)
	}
	prompt := `call mcp__repo__echo {"text":"trusted"}`
	code, out, errOut := s.run(nil, "--pace", "0", "run", prompt)
	if code != 0 || strings.Contains(out, "trusted\n") || !strings.Contains(errOut, ".mcp.json is not trusted") {
		t.Fatalf("untrusted: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	code, out, _ = s.run(nil, "mcp", "list")
	if code != 0 || !strings.Contains(out, "untrusted") || !strings.Contains(out, `"mcpTrustedProjects"`) {
		t.Fatalf("mcp list: exit %d\n%s", code, out)
	}
	code, out, errOut = s.run(nil, "--pace", "0", "--trust-project", "run", prompt)
	if code != 0 || !strings.Contains(errOut, "← mcp__repo__echo ok") || !strings.Contains(out, "trusted") {
		t.Fatalf("trusted: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

// TestSIGHUPKillsMCPChildren: a run waiting on a slow MCP call quits on
// SIGHUP and leaves no server behind.
func TestSIGHUPKillsMCPChildren(t *testing.T) {
	s := newSandbox(t)
	pids := filepath.Join(t.TempDir(), "pids")
	cfg := mcpConfig(t, pids, map[string]string{"srv": mcptest.ModeOK})
	cmd := s.command("--config", cfg, "--pace", "0", "run", `call mcp__srv__slow {}`)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var seen []string
	waitLine(t, lines(stderr), "→ mcp__srv__slow", 30*time.Second, &seen)
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	if code := exitCode(t, cmd, 20*time.Second); code != 128+int(syscall.SIGHUP) {
		t.Errorf("exit %d, want %d", code, 128+int(syscall.SIGHUP))
	}
	noChildLeft(t, pids)
}

// TestRunAnswersMCPSampling: a server's tool that asks the model for a
// completion (sampling) is answered by the scripted model (auto, the
// headless default) when the server has allowSampling; otherwise the
// server reads a refusal saying why.
func TestRunAnswersMCPSampling(t *testing.T) {
	tests := []struct {
		name    string
		allow   bool
		approve []string
		want    string
	}{
		{"allowed, auto", true, []string{"--approve", "auto"}, "echo said (endTurn): You said: write a haiku"},
		{"allowed, ask with nobody to ask", true, []string{"--approve", "ask"}, "--approve auto"},
		{"allowed, never", true, []string{"--approve", "never"}, `tool approval is "never"`},
		{"not allowed", false, []string{"--approve", "auto"}, "sampling failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSandbox(t)
			cmd, args, env := mcptest.Command(mcptest.ModeOK)
			raw, err := json.Marshal(map[string]any{"mcpServers": map[string]any{"srv": map[string]any{
				"command": cmd, "args": args, "env": env, "timeoutSeconds": 10, "allowSampling": tt.allow}}})
			if err != nil {
				t.Fatal(err)
			}
			cfg := writeFile(t, "config.json", string(raw))
			argv := append([]string{"--config", cfg, "--pace", "0", "run"}, tt.approve...)
			code, out, errOut := s.run(nil, append(argv, `call mcp__srv__sample {"text":"write a haiku"}`)...)
			if code != 0 || !strings.Contains(out, tt.want) {
				t.Fatalf("exit %d, want stdout to contain %q\nstdout:\n%s\nstderr:\n%s", code, tt.want, out, errOut)
			}
		})
	}
}
