package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/runner/headless"
	"github.com/steer-tui/steer/agent/runner/steerbin"
)

// TestREADMEConfigWithoutKeys: the README's example with no key set still
// runs offline; a model that needs a missing key is exit 2 naming it.
func TestREADMEConfigWithoutKeys(t *testing.T) {
	s := newSandbox(t)
	cfg := writeFile(t, "config.json", steerbin.READMEConfig(t))
	base := []string{"--config", cfg, "--state-dir", s.stateDir, "--pace", "0"}

	code, stdout, stderr := s.run(nil, append(base, "--model", "scripted/echo", "run", "hello")...)
	if code != headless.ExitOK || !strings.Contains(stdout, "You said: hello") {
		t.Errorf("--model scripted/echo: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, _, stderr = s.run(nil, append(base, "--model", "anthropic/claude-sonnet-4-5", "run", "hello")...)
	if want := "steer: --model anthropic/claude-sonnet-4-5: ANTHROPIC_API_KEY is not set\n"; code != headless.ExitUsage || stderr != want {
		t.Errorf("--model anthropic/…: exit %d, stderr %q; want 2, %q", code, stderr, want)
	}
	code, _, stderr = s.run(nil, append(base, "--model", "mini", "run", "hello")...)
	if want := "steer: --model openai/gpt-4.1-mini: OPENAI_API_KEY is not set\n"; code != headless.ExitUsage || stderr != want {
		t.Errorf("--model mini: exit %d, stderr %q; want 2, %q", code, stderr, want)
	}
	code, _, stderr = s.run(nil, append(base, "run", "hello")...)
	if code != headless.ExitUsage || !strings.Contains(stderr, "ANTHROPIC_API_KEY is not set") ||
		!strings.Contains(stderr, "--model scripted/echo") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("default model: exit %d, stderr %q", code, stderr)
	}
}

// TestResolverNamesNoFlag: the runtime's resolver also serves rpc's
// set_model, so its errors do not mention --model; only the flag's own
// check at start does.
func TestResolverNamesNoFlag(t *testing.T) {
	s := newSandbox(t)
	cfg := writeFile(t, "config.json", steerbin.READMEConfig(t))

	cmd := s.command("--config", cfg, "--pace", "0", "--model", "scripted/echo", "rpc")
	cmd.Stdin = strings.NewReader(`{"type":"set_model","provider":"nope","modelId":"nope"}` + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("steer rpc: %v", err)
	}
	reply := string(out)
	if !strings.Contains(reply, `"command":"set_model"`) || !strings.Contains(reply, `"success":false`) ||
		!strings.Contains(reply, "nope") || strings.Contains(reply, "--model") {
		t.Errorf("set_model nope answered %s; want an error without --model", reply)
	}

	code, _, stderr := s.run(nil, "--config", cfg, "--pace", "0", "--model", "nope", "run", "hello")
	if code != headless.ExitUsage || !strings.HasPrefix(stderr, "steer: --model: unknown model") {
		t.Errorf("--model nope: exit %d, stderr %q", code, stderr)
	}
}

// TestContinueWithNothingToContinueSaysSo: --continue in a directory
// without sessions says it starts a new one; with one, it says nothing.
func TestContinueWithNothingToContinueSaysSo(t *testing.T) {
	s := newSandbox(t)
	args := []string{"--state-dir", s.stateDir, "--pace", "0", "--continue", "run", "hello"}
	code, _, stderr := s.run(nil, args...)
	if code != headless.ExitOK || stderr != "steer: no saved session in this directory (or all are open in other steer processes); starting a new one\n" {
		t.Errorf("first: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = s.run(nil, args...)
	if code != headless.ExitOK || stderr != "" {
		t.Errorf("second: exit %d, stderr %q", code, stderr)
	}
}

// TestKeysDoNotReachTools: a command the model runs does not see the key
// variables the config's profiles read, whatever they are called.
func TestKeysDoNotReachTools(t *testing.T) {
	s := newSandbox(t)
	s.setenv("corpKey", "sk-corp-SECRET-777")
	cfg := writeFile(t, "config.json", `{"providers": {"corp": {"api": "openai-chat", "baseURL": "https://llm.corp.example/v1",
		"profiles": [{"apiKeyEnv": "corpKey"}], "models": [{"id": "m"}]}}}`)
	code, stdout, stderr := s.run(nil, "--config", cfg, "--state-dir", s.stateDir, "--pace", "0", "--model", "scripted/echo",
		"run", `run echo "key=[$corpKey]"`)
	if code != headless.ExitOK || !strings.Contains(stdout, "key=[]") || strings.Contains(stdout+stderr, "SECRET") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// The variable is there for steer itself: a tool could have read it.
	code, stdout, _ = s.run(nil, "--state-dir", s.stateDir, "--pace", "0", "run", `run echo "key=[$corpKey]"`)
	if code != headless.ExitOK || !strings.Contains(stdout, "key=[sk-corp-SECRET-777]") {
		t.Errorf("without the config: exit %d, stdout %q", code, stdout)
	}
}

// TestModelFlagWinsOverAResumedSession: --continue brings the session back,
// on the model --model names rather than the one it was saved with.
func TestModelFlagWinsOverAResumedSession(t *testing.T) {
	s := newSandbox(t)
	if code, _, stderr := s.run(nil, "--state-dir", s.stateDir, "--pace", "0", "run", "hi"); code != headless.ExitOK {
		t.Fatalf("first run: %d, %q", code, stderr)
	}
	code, stdout, stderr := s.run(nil, "--state-dir", s.stateDir, "--pace", "0", "--continue", "--model", "scripted/tiny", "run", "--json", "again")
	if code != headless.ExitOK || !strings.Contains(stdout, `"model":"tiny"`) || strings.Contains(stdout, `"model":"echo"`) {
		t.Errorf("exit %d, stderr %q; the answer's model is not tiny:\n%.300s", code, stderr, stdout)
	}
}

// TestKeysStayOutOfTheDatabaseAndJSON: the model running `env` sees no key,
// so none reaches the transcript: neither the --json output nor any byte of
// the state directory (database, WAL, logs) holds one.
func TestKeysStayOutOfTheDatabaseAndJSON(t *testing.T) {
	s := newSandbox(t)
	secrets := map[string]string{
		"ANTHROPIC_API_KEY": "sk-ant-LEAK-1111",
		"corpKey":           "sk-corp-LEAK-2222", // read by a profile: hidden by name
		"GITHUB_TOKEN":      "ghp-LEAK-3333",     // a well-known secret name
	}
	for k, v := range secrets {
		s.setenv(k, v)
	}
	cfg := writeFile(t, "config.json", `{"providers": {"corp": {"api": "openai-chat", "baseURL": "https://llm.corp.example/v1",
		"profiles": [{"apiKeyEnv": "corpKey"}], "models": [{"id": "m"}]}}}`)
	code, stdout, stderr := s.run(nil, "--config", cfg, "--pace", "0", "--model", "scripted/echo", "run", "--json", "run env")
	if code != headless.ExitOK || !strings.Contains(stdout, "PATH=") {
		t.Fatalf("exit %d (stderr %q); the env output is not in the JSON:\n%.300s", code, stderr, stdout)
	}
	err := filepath.WalkDir(s.stateDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		for name, v := range secrets {
			if bytes.Contains(data, []byte(v)) {
				t.Errorf("%s holds the value of %s", path, name)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range secrets {
		if strings.Contains(stdout+stderr, v) {
			t.Errorf("the --json output holds the value of %s", name)
		}
	}
}

// TestSessionFromAnotherWorkspace: --session from another directory says
// which workspace the session belongs to, and its tools work there.
func TestSessionFromAnotherWorkspace(t *testing.T) {
	s := newSandbox(t)
	if code, _, stderr := s.run(nil, "--pace", "0", "run", "hi"); code != headless.ExitOK {
		t.Fatalf("first run: %d %s", code, stderr)
	}
	code, stdout, _ := s.run(nil, "sessions", "--json")
	var list []map[string]any
	if err := json.Unmarshal([]byte(stdout), &list); err != nil || code != headless.ExitOK || len(list) != 1 {
		t.Fatalf("sessions: %v %q", err, stdout)
	}
	id := list[0]["id"].(string)
	home := s.workspace
	s.workspace = t.TempDir()
	code, stdout, stderr := s.run(nil, "--pace", "0", "--session", id, "run", "run pwd")
	if code != headless.ExitOK || !strings.Contains(stderr, "belongs to "+home) || !strings.Contains(stderr, "│ "+home) {
		t.Fatalf("exit %d, stdout %q, stderr %q; want the session's workspace %s", code, stdout, stderr, home)
	}
}

// TestAClosedOutputStopsTheRunInOrder: `steer run … | head` closing stdout
// stops the run with its reason and saves it, instead of steer dying of
// SIGPIPE before it saves.
func TestAClosedOutputStopsTheRunInOrder(t *testing.T) {
	s := newSandbox(t)
	cmd := s.command("--pace", "20", "run", "hello")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 10)
	if _, err := io.ReadFull(stdout, buf); err != nil {
		t.Fatal(err)
	}
	stdout.Close() // the reader goes away, as head does
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != headless.ExitFailed || !strings.Contains(stderr.String(), headless.AbortOutputClosed) {
		t.Fatalf("steer ended with %v (stderr %q), want exit %d saying why", err, stderr.String(), headless.ExitFailed)
	}
	code, out, _ := s.run(nil, "sessions", "--json")
	var list []map[string]any
	if code != headless.ExitOK || json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 {
		t.Fatalf("sessions: %q", out)
	}
	code, out, _ = s.run(nil, "sessions", "show", list[0]["id"].(string), "--json")
	if code != headless.ExitOK || !strings.Contains(out, headless.AbortOutputClosed) {
		t.Fatalf("the saved transcript does not say why the run stopped:\n%.400s", out)
	}
}

// TestAnAnswerThatCannotBeWrittenFails: stdout on a full disk is a failure
// said on stderr, not a success nobody saw.
func TestAnAnswerThatCannotBeWrittenFails(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here")
	}
	defer full.Close()
	s := newSandbox(t)
	cmd := s.command("--pace", "0", "run", "hello")
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = full, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if code := exitCode(t, cmd, time.Minute); code != headless.ExitFailed || !strings.Contains(stderr.String(), "no space left on device") {
		t.Fatalf("exit %d, stderr %q; want %d naming the full disk", code, stderr.String(), headless.ExitFailed)
	}
}
