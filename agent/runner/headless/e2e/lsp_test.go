package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/lsp/lsptest"
)

// LSP diagnostics (issue 34) through the binary, with a real gopls: in one
// rpc session, an edit introducing a type error returns gopls's diagnostic
// in its result, the fix returns none, and after gopls is killed the next
// edit still succeeds, saying gopls failed.

// rpcSession is one `steer rpc` whose answers the test reads line by line.
type rpcSession struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   <-chan string
	seen  []string
}

func startRPC(t *testing.T, s *sandbox, args ...string) *rpcSession {
	t.Helper()
	cmd := s.command(append(args, "rpc")...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	r := &rpcSession{t: t, cmd: cmd, stdin: stdin, out: lines(stdout)}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return r
}

// send writes one command and returns the lines up to the one holding
// until.
func (r *rpcSession) send(command map[string]any, until string, timeout time.Duration) []string {
	r.t.Helper()
	b, err := json.Marshal(command)
	if err != nil {
		r.t.Fatal(err)
	}
	if _, err := fmt.Fprintf(r.stdin, "%s\n", b); err != nil {
		r.t.Fatal(err)
	}
	from := len(r.seen)
	waitLine(r.t, r.out, until, timeout, &r.seen)
	return r.seen[from:]
}

// call prompts the scripted model to call tool with args and returns the
// call's result text and error flag.
func (r *rpcSession) call(tool string, args map[string]any) (string, bool) {
	r.t.Helper()
	got := r.send(map[string]any{"type": "prompt", "message": callPrompt(r.t, tool, args)}, `"type":"agent_end"`, time.Minute)
	for _, l := range got {
		var ev map[string]any
		if json.Unmarshal([]byte(l), &ev) == nil && ev["type"] == "tool_execution_end" && ev["toolName"] == tool {
			res, _ := ev["result"].(map[string]any)
			return messageText(res), ev["isError"] == true
		}
	}
	r.t.Fatalf("no %s call ended: %q", tool, got)
	return "", false
}

// lspServers is rpc's inspect {what: "lsp"}.
func (r *rpcSession) lspServers() []struct {
	Language, State, Reason string
	PID                     int
} {
	r.t.Helper()
	got := r.send(map[string]any{"type": "inspect", "what": "lsp", "id": "lsp"}, `"id":"lsp"`, 10*time.Second)
	var answer struct {
		Success bool
		Data    struct {
			Servers []struct {
				Language, State, Reason string
				PID                     int
			}
		}
	}
	if err := json.Unmarshal([]byte(got[len(got)-1]), &answer); err != nil || !answer.Success {
		r.t.Fatalf("inspect lsp: %v %s", err, got[len(got)-1])
	}
	return answer.Data.Servers
}

func TestLSPDiagnosticsWithGopls(t *testing.T) {
	slow(t)
	dir := lsptest.GoplsDir(t)
	s := newSandbox(t)
	s.setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	writeWS(t, s, "go.mod", "module example.com/m\n\ngo 1.22\n")
	writeWS(t, s, "main.go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tn := 1\n\tfmt.Println(n)\n}\n")
	rpc := startRPC(t, s, "--pace", "0", "--approve", "auto")
	edit := func(from, to string) (string, bool) {
		return rpc.call("edit", map[string]any{"path": "main.go", "edits": []any{map[string]any{"oldText": from, "newText": to}}})
	}

	result, isErr := edit("n := 1", "var n int = \"one\"")
	if isErr || !strings.Contains(result, "gopls: 1 error (after ") ||
		!strings.Contains(result, `main.go:6:14 error cannot use "one" (untyped string constant) as int value in variable declaration (compiler)`) {
		t.Fatalf("the type error's edit: error %v, %q", isErr, result)
	}
	result, isErr = edit("var n int = \"one\"", "n := 2")
	if isErr || !strings.Contains(result, "gopls: no diagnostics (after ") {
		t.Fatalf("the fix: error %v, %q", isErr, result)
	}

	servers := rpc.lspServers()
	if len(servers) == 0 || servers[0].Language != "go" || servers[0].State != "ready" || servers[0].PID == 0 {
		t.Fatalf("servers %+v, want gopls ready first", servers)
	}
	if err := syscall.Kill(servers[0].PID, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		t.Fatal(err)
	}
	result, isErr = edit("n := 2", "n := 3")
	if isErr || !strings.Contains(result, "Edited ") || !strings.Contains(result, "gopls failed: exited (signal: killed)") {
		t.Fatalf("the edit after the kill: error %v, %q", isErr, result)
	}
	if got := readWS(t, s, "main.go"); !strings.Contains(got, "n := 3") {
		t.Errorf("main.go after the last edit: %q", got)
	}
	if servers := rpc.lspServers(); servers[0].State != "failed" || servers[0].Reason != "exited (signal: killed)" {
		t.Errorf("after the kill: %+v", servers[0])
	}
	rpc.stdin.Close()
	if code := exitCode(t, rpc.cmd, 30*time.Second); code != 0 {
		t.Fatalf("steer rpc exit %d", code)
	}
}

// TestGoplsEndsWithSteer: a SIGHUP to steer, as a closed terminal sends,
// ends the gopls it started.
func TestGoplsEndsWithSteer(t *testing.T) {
	slow(t)
	dir := lsptest.GoplsDir(t)
	s := newSandbox(t)
	s.setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	writeWS(t, s, "go.mod", "module example.com/m\n\ngo 1.22\n")
	rpc := startRPC(t, s, "--pace", "0", "--approve", "auto")
	if result, _ := rpc.call("write", map[string]any{"path": "main.go", "content": "package main\n\nfunc main() {}\n"}); !strings.Contains(result, "gopls: no diagnostics") {
		t.Fatalf("write: %q", result)
	}
	servers := rpc.lspServers()
	if len(servers) == 0 || servers[0].PID == 0 {
		t.Fatalf("servers %+v, want gopls running", servers)
	}
	if err := rpc.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	exitCode(t, rpc.cmd, 30*time.Second)
	if alive(servers[0].PID) {
		t.Errorf("gopls %d outlived steer", servers[0].PID)
	}
}

// TestInspectLSP: `steer inspect lsp --json` lists the configured servers
// and the defaults found on PATH, none started; "enabled": false keeps a
// default off.
func TestInspectLSP(t *testing.T) {
	s := newSandbox(t)
	bin := mkdir(t, t.TempDir(), "bin")
	for _, name := range []string{"gopls", "pyright-langserver"} {
		writeExecutable(t, filepath.Join(bin, name))
	}
	s.setenv("PATH", bin)
	cfg := writeFile(t, "config.json", `{"lsp": {"python": {"enabled": false}, "zig": {"command": "zls", "filetypes": ["zig"]}}}`)
	code, stdout, stderr := s.run(nil, "--config", cfg, "inspect", "lsp", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out struct {
		Servers []struct {
			Language, Command, State string
			Detected                 bool
		}
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	var got []string
	for _, sv := range out.Servers {
		got = append(got, fmt.Sprintf("%s=%s %s detected=%v", sv.Language, sv.Command, sv.State, sv.Detected))
	}
	if want := "python=pyright-langserver disabled detected=false; zig=zls not started detected=false; go=gopls not started detected=true"; strings.Join(got, "; ") != want {
		t.Errorf("servers %q, want %q", strings.Join(got, "; "), want)
	}
}

// writeExecutable writes a program that exits at once.
func writeExecutable(t *testing.T, path string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("#!/bin/sh\nexit 0\n"), 0o700); err != nil {
		t.Fatal(err)
	}
}
