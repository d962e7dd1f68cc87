package main

import (
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent/runner/config"
	"github.com/steer-tui/steer/tui/theme"
)

// offline makes the environment key-free and config-free, and works in a
// fresh directory, whatever the developer's environment holds.
func offline(t *testing.T) (stateDir string) {
	t.Helper()
	for _, k := range []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENROUTER_API_KEY", "STEER_STATE_DIR"} {
		t.Setenv(k, "")
	}
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Chdir(filepath.Join(mkdir(t, dir, "workspace")))
	return mkdir(t, dir, "state")
}

func mkdir(t *testing.T, parts ...string) string {
	t.Helper()
	dir := filepath.Join(parts...)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

// steerMain runs realMain in the process.
func steerMain(t *testing.T, stdin io.Reader, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	var out, errb strings.Builder
	code = realMain(args, stdin, &out, &errb)
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestVersionText(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "7aced77f1b2c3d4e5f60718293a4b5c6d7e8f901"},
		{Key: "vcs.time", Value: "2026-12-01T00:47:59Z"}, {Key: "vcs.modified", Value: "true"}}
	tests := []struct {
		name string
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{"a working tree", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs},
			true, "steer devel (rev 7aced77f1b2c, 2026-12-01T00:47:59Z, modified) go1.26.8\n"},
		{"a release", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.3.1"}},
			true, "steer v0.3.1 go1.26.8\n"},
		{"no version, short revision", &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}}},
			true, "steer devel (rev abc)\n"},
		{"no build information", nil, false, "steer (version unknown: built without module information)\n"},
	}
	for _, tt := range tests {
		if got := versionText(tt.info, tt.ok); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestVersionAndHelp(t *testing.T) {
	tests := []struct {
		args []string
		want string // a prefix of stdout
	}{
		{[]string{"--version"}, "steer "},
		{[]string{"version"}, "steer "},
		{[]string{"--help"}, usage},
		{[]string{"help"}, usage},
		{[]string{"run", "--help"}, runUsage},
		{[]string{"run", "-h"}, runUsage},
		{[]string{"rpc", "--help"}, rpcUsage},
		{[]string{"sessions", "--help"}, sessionsUsage},
		{[]string{"sessions", "show", "--help"}, sessionsUsage},
		{[]string{"help", "run"}, runUsage},
		{[]string{"help", "sessions"}, sessionsUsage},
	}
	for _, tt := range tests {
		code, stdout, stderr := steerMain(t, nil, tt.args...)
		if code != exitOK || !strings.HasPrefix(stdout, tt.want) || stderr != "" {
			t.Errorf("steer %s: exit %d, stdout %.60q, stderr %q", strings.Join(tt.args, " "), code, stdout, stderr)
		}
	}
	if code, _, stderr := steerMain(t, nil, "help", "nope"); code != exitUsage || !strings.Contains(stderr, `no help for "nope"`) {
		t.Errorf("steer help nope: exit %d, %q", code, stderr)
	}
}

// TestUsageErrors: mistakes on the command line are one line and exit 2,
// before anything is opened.
func TestUsageErrors(t *testing.T) {
	offline(t)
	tests := []struct {
		args  []string
		stdin string
		want  string
	}{
		{[]string{"run", ""}, "", "steer: the prompt is empty\n"},
		{[]string{"run", "  ", " "}, "", "steer: the prompt is empty\n"},
		{[]string{"run"}, " \n", "steer: the prompt is empty\n"},
		{[]string{"--theme", "blue"}, "", "steer: --theme: unknown theme \"blue\" (want dark, light or auto)\n"},
		{[]string{"run", "--theme", "dark", "hi"}, "", "steer: --theme applies to the terminal UI only\n"},
		{[]string{"version", "x"}, "", "steer: version takes no arguments\n"},
	}
	for _, tt := range tests {
		code, _, stderr := steerMain(t, strings.NewReader(tt.stdin), tt.args...)
		if code != exitUsage || stderr != tt.want {
			t.Errorf("steer %q: exit %d, stderr %q; want 2, %q", tt.args, code, stderr, tt.want)
		}
	}
}

// endless is a stdin that never ends, counting what is read from it.
type endless struct{ read int }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	e.read += len(p)
	return len(p), nil
}

// TestRunRefusesATooLargePrompt: the config's agent.maxInputBytes bounds
// the prompt; a larger one from stdin is refused after reading the limit
// and a byte, and nothing is stored.
func TestRunRefusesATooLargePrompt(t *testing.T) {
	stateDir := offline(t)
	cfg := writeFile(t, "config.json", `{"agent": {"maxInputBytes": 1024}}`)
	in := &endless{}
	code, _, stderr := steerMain(t, io.LimitReader(in, 1<<30), "--config", cfg, "--state-dir", stateDir, "run")
	if code != exitUsage || stderr != "steer: the prompt on stdin is over the limit of 1.0 KiB (agent.maxInputBytes)\n" {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if in.read > 64<<10 {
		t.Errorf("read %d bytes of stdin", in.read)
	}
	code, _, stderr = steerMain(t, nil, "--config", cfg, "--state-dir", stateDir, "run", strings.Repeat("y", 1025))
	if code != exitUsage || !strings.Contains(stderr, "over the limit of 1.0 KiB") {
		t.Errorf("argument: exit %d, stderr %q", code, stderr)
	}
	if code, stdout, _ := steerMain(t, nil, "--state-dir", stateDir, "sessions"); code != exitOK || !strings.Contains(stdout, "No saved sessions") {
		t.Errorf("sessions after refused prompts: %q", stdout)
	}
}

// readmeConfig is README.md's configuration example, verbatim.
const readmeConfig = `{
  "model": "sonnet",
  "aliases": { "sonnet": "anthropic/claude-sonnet-4-5", "mini": "openai/gpt-4.1-mini" },
  "providers": {
    "anthropic": { "api": "anthropic-messages",
                   "profiles": [ { "id": "anthropic:main", "apiKeyEnv": "ANTHROPIC_API_KEY" } ] },
    "openai":    { "api": "openai-chat",
                   "profiles": [ { "id": "openai:main", "apiKeyEnv": "OPENAI_API_KEY" } ] },
    "openrouter": { "api": "openai-chat", "baseURL": "https://openrouter.ai/api/v1",
                    "profiles": [ { "id": "openrouter:main", "apiKeyEnv": "OPENROUTER_API_KEY" } ],
                    "models": [ { "id": "anthropic/claude-sonnet-4.5" } ] },
    "ollama":    { "api": "openai-chat", "baseURL": "http://127.0.0.1:11434/v1",
                   "models": [ { "id": "qwen3:8b", "contextWindow": 32768, "maxOutput": 8192, "reasoning": true } ] },
    "llamacpp":  { "api": "openai-chat", "baseURL": "http://127.0.0.1:8080/v1", "timeoutSeconds": 600,
                   "models": [ { "id": "local", "contextWindow": 16384 } ] }
  },
  "agent": { "thinking": "medium", "steeringMode": "one-at-a-time", "followUpMode": "one-at-a-time" }
}`

// TestREADMEConfigWithoutKeys: the README's example with no key set still
// runs offline; a model that needs a missing key is exit 2 naming it.
func TestREADMEConfigWithoutKeys(t *testing.T) {
	stateDir := offline(t)
	cfg := writeFile(t, "config.json", readmeConfig)
	base := []string{"--config", cfg, "--state-dir", stateDir, "--pace", "0"}

	code, stdout, stderr := steerMain(t, nil, append(base, "--model", "scripted/echo", "run", "hello")...)
	if code != exitOK || !strings.Contains(stdout, "You said: hello") {
		t.Errorf("--model scripted/echo: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, _, stderr = steerMain(t, nil, append(base, "--model", "anthropic/claude-sonnet-4-5", "run", "hello")...)
	if want := "steer: --model anthropic/claude-sonnet-4-5: ANTHROPIC_API_KEY is not set\n"; code != exitUsage || stderr != want {
		t.Errorf("--model anthropic/…: exit %d, stderr %q; want 2, %q", code, stderr, want)
	}
	code, _, stderr = steerMain(t, nil, append(base, "--model", "mini", "run", "hello")...)
	if want := "steer: --model openai/gpt-4.1-mini: OPENAI_API_KEY is not set\n"; code != exitUsage || stderr != want {
		t.Errorf("--model mini: exit %d, stderr %q; want 2, %q", code, stderr, want)
	}
	code, _, stderr = steerMain(t, nil, append(base, "run", "hello")...)
	if code != exitUsage || !strings.Contains(stderr, "ANTHROPIC_API_KEY is not set") ||
		!strings.Contains(stderr, "--model scripted/echo") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("default model: exit %d, stderr %q", code, stderr)
	}
}

// TestResolverNamesNoFlag: the runtime's resolver also serves rpc's
// set_model, so its errors do not mention --model; only the flag's own
// check at start does.
func TestResolverNamesNoFlag(t *testing.T) {
	offline(t)
	cfg, err := config.Load(writeFile(t, "config.json", readmeConfig), os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	providers, err := providersFrom(cfg, options{})
	if err != nil {
		t.Fatal(err)
	}
	resolve := resolverFor(cfg, providers)
	if _, err := resolve("nope"); err == nil || strings.Contains(err.Error(), "--model") {
		t.Errorf("resolve(nope) = %v; want an error without --model", err)
	}
	if _, err := initialModel(cfg, options{model: "nope"}, providers, resolve); err == nil || !strings.HasPrefix(err.Error(), "--model: unknown model") {
		t.Errorf("initialModel(--model nope) = %v", err)
	}
}

// TestContinueWithNothingToContinueSaysSo: --continue in a directory
// without sessions says it starts a new one; with one, it says nothing.
func TestContinueWithNothingToContinueSaysSo(t *testing.T) {
	stateDir := offline(t)
	args := []string{"--state-dir", stateDir, "--pace", "0", "--continue", "run", "hello"}
	code, _, stderr := steerMain(t, nil, args...)
	if code != exitOK || stderr != "steer: no saved session in this directory; starting a new one\n" {
		t.Errorf("first: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = steerMain(t, nil, args...)
	if code != exitOK || stderr != "" {
		t.Errorf("second: exit %d, stderr %q", code, stderr)
	}
}

func TestPickTheme(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	t.Setenv("COLORFGBG", "15;0") // a dark terminal
	for setting, want := range map[string]string{"dark": theme.Dark().Name, "light": theme.Light().Name, "auto": theme.Dark().Name} {
		if got := pickTheme(setting).Name; got != want {
			t.Errorf("pickTheme(%q) = %q, want %q", setting, got, want)
		}
	}
	t.Setenv("NO_COLOR", "1")
	if got := pickTheme("light").Name; got != theme.Plain().Name {
		t.Errorf("light under NO_COLOR = %q", got)
	}
}

func TestThemeSetting(t *testing.T) {
	cfg := &config.Config{UI: config.UISettings{Theme: config.ThemeLight}}
	if got := themeFor(cfg, options{}); got != "light" {
		t.Errorf("config only: %q", got)
	}
	if got := themeFor(cfg, options{theme: "dark"}); got != "dark" {
		t.Errorf("the flag wins: %q", got)
	}
}

// TestKeysDoNotReachTools: a command the model runs does not see the key
// variables the config's profiles read, whatever they are called.
func TestKeysDoNotReachTools(t *testing.T) {
	stateDir := offline(t)
	t.Setenv("corpKey", "sk-corp-SECRET-777")
	cfg := writeFile(t, "config.json", `{"providers": {"corp": {"api": "openai-chat", "baseURL": "https://llm.corp.example/v1",
		"profiles": [{"apiKeyEnv": "corpKey"}], "models": [{"id": "m"}]}}}`)
	code, stdout, stderr := steerMain(t, nil, "--config", cfg, "--state-dir", stateDir, "--pace", "0", "--model", "scripted/echo",
		"run", `run echo "key=[$corpKey]"`)
	if code != exitOK || !strings.Contains(stdout, "key=[]") || strings.Contains(stdout+stderr, "SECRET") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestModelFlagWinsOverAResumedSession: --continue brings the session back,
// on the model --model names rather than the one it was saved with.
func TestModelFlagWinsOverAResumedSession(t *testing.T) {
	stateDir := offline(t)
	if code, _, stderr := steerMain(t, nil, "--state-dir", stateDir, "--pace", "0", "run", "hi"); code != exitOK {
		t.Fatalf("first run: %d, %q", code, stderr)
	}
	code, stdout, stderr := steerMain(t, nil, "--state-dir", stateDir, "--pace", "0", "--continue", "--model", "scripted/tiny", "run", "--json", "again")
	if code != exitOK || !strings.Contains(stdout, `"model":"tiny"`) || strings.Contains(stdout, `"model":"echo"`) {
		t.Errorf("exit %d, stderr %q; the answer's model is not tiny:\n%.300s", code, stderr, stdout)
	}
}
