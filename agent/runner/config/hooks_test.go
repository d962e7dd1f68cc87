package config

import (
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/runner/hooks"
)

// TestHooks: Claude Code's hooks object is read as written, numbered per
// event; every bad hook is refused on its line, and so is a hook of an
// event the runner does not run hooks at yet.
func TestHooks(t *testing.T) {
	good := `{"hooks": {
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./a.sh", "timeout": 2}]},
                 {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "./b.sh"}]}],
  "PostToolUse": [{"hooks": [{"type": "command", "command": "./c.sh"}]}]
}}`
	path := writeConfig(t, good)
	c, err := loadWith(path, envOf(nil), testAPIs, defaultCatalogue, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range c.Hooks {
		got = append(got, h.Name()+" "+h.Matcher+" "+h.Command+" "+h.Timeout.String())
		if h.Source != path {
			t.Errorf("%s: source %q, want %q", h.Name(), h.Source, path)
		}
	}
	want := []string{"PreToolUse[0] Bash ./a.sh 2s", "PreToolUse[1] Edit|Write ./b.sh 0s", "PostToolUse[0]  ./c.sh 0s"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("hooks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if c.Hooks[1].Timeout != 0 || hooks.DefaultTimeout != 60*time.Second {
		t.Errorf("a hook without a timeout gets %v", c.Hooks[1].Timeout)
	}

	bad := []struct{ name, body, want string }{
		{"unknown event", `{"hooks": {"PreToolCall": []}}`, `config.json:1: hooks.PreToolCall: unknown hook event "PreToolCall"`},
		{"prompt type", `{"hooks": {"PostToolUse": [{"hooks": [
  {"type": "prompt", "prompt": "is it done?"}]}]}}`, `config.json:2: hooks.PostToolUse[0].hooks[0].type: "prompt" hooks are not supported yet`},
		{"unknown type", `{"hooks": {"PostToolUse": [{"hooks": [{"type": "shell", "command": "x"}]}]}}`, `unknown hook type "shell"`},
		{"no command", `{"hooks": {"PostToolUse": [{"hooks": [{"type": "command"}]}]}}`, `a command hook needs a command`},
		{"negative timeout", `{"hooks": {"PostToolUse": [{"hooks": [{"type": "command", "command": "x", "timeout": -1}]}]}}`, `must not be negative`},
		{"bad matcher", `{"hooks": {"PreToolUse": [{"matcher": "([", "hooks": [{"type": "command", "command": "x"}]}]}}`, `not a valid regular expression`},
		{"unknown hook key", `{"hooks": {"PostToolUse": [{"hooks": [{"type": "command", "command": "x", "async": true}]}]}}`, `async`},
		{"a matcher where the event has none", `{"hooks": {
  "Stop": [{"matcher": "x", "hooks": [{"type": "command", "command": "x"}]}]}}`, `config.json:2: hooks.Stop[0].hooks[0]: Stop hooks have no matcher`},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadWith(writeConfig(t, tt.body), envOf(nil), testAPIs, defaultCatalogue, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want it to contain %q", err, tt.want)
			}
		})
	}

	if c, err := Load(path, envOf(nil), testAPIs); err != nil || len(c.Hooks) != len(want) {
		t.Errorf("Load refuses the hooks key or drops hooks: %v", err)
	}
}
