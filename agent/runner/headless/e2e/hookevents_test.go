package e2e

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/headless"
)

// The hooks of a run's end and a session's life (issue 30): Stop,
// SessionStart, SessionEnd and PreCompact through the binary.

// hookLog is a file a hook appends its stdin to, one event per line.
type hookLog string

func newHookLog(t *testing.T) hookLog { return hookLog(filepath.Join(t.TempDir(), "events.jsonl")) }

// append is the shell line that appends the hook's stdin to the log.
func (l hookLog) append() string { return `in=$(cat); printf '%s\n' "$in" >> ` + shQuote(string(l)) }

// events reads the logged inputs.
func (l hookLog) events(t *testing.T) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(string(l))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("a hook's stdin is not JSON: %q", line)
		}
		out = append(out, ev)
	}
	return out
}

// loopbackConfig is a config for a loopback provider at url (model
// local/m) with hooks (JSON).
func loopbackConfig(t *testing.T, url, hooks string) string {
	return writeFile(t, "config.json", `{"providers": {"local": {"api": "openai-chat", "baseURL": "`+url+`/v1",
	"models": [{"id": "m"}]}}, "hooks": `+hooks+`}`)
}

// commandHook is the hooks JSON of one command hook for event.
func commandHook(event, command string) string {
	return `"` + event + `": [{"hooks": [{"type": "command", "command": ` + jsonString(command) + `}]}]`
}

// TestStopHooksKeepTheRunGoing: a Stop hook that exits 2 while
// stop_hook_active is false sends its reason to the model, which answers
// again, and the second stop (stop_hook_active true) ends the run; a hook
// that always blocks is cut off after runner.MaxStopBlocks with a notice.
func TestStopHooksKeepTheRunGoing(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		requests     int
		notice       string
	}{
		{"once", `case "$in" in *'"stop_hook_active":false'*) echo "run the tests first" >&2; exit 2;; esac`, 2, ""},
		{"forever", `echo "run the tests first" >&2; exit 2`, runner.MaxStopBlocks + 1, "kept the run going 8 times in a row: it ends here"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := &promptServer{}
			ts := httptest.NewServer(srv)
			defer ts.Close()
			log := newHookLog(t)
			cfg := loopbackConfig(t, ts.URL, `{`+commandHook("Stop", hookScript(t, log.append()+"\n"+tc.script))+`}`)
			code, _, stderr := newSandbox(t).run(nil, "--config", cfg, "--model", "local/m", "run", "finish the work")
			if code != headless.ExitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			reqs := srv.requests()
			if len(reqs) != tc.requests {
				t.Fatalf("%d requests, want %d", len(reqs), tc.requests)
			}
			if !strings.Contains(reqs[1], "run the tests first") || !strings.Contains(reqs[1], "stop-hook") {
				t.Errorf("the second request lacks the hook's reason: %s", reqs[1])
			}
			events := log.events(t)
			if len(events) != tc.requests {
				t.Fatalf("the hook ran %d times, want %d", len(events), tc.requests)
			}
			for i, ev := range events {
				if ev["hook_event_name"] != "Stop" || ev["stop_hook_active"] != (i > 0) || ev["session_id"] == "" {
					t.Errorf("stop %d: the hook read %v", i, ev)
				}
			}
			if tc.notice != "" && !strings.Contains(stderr, tc.notice) {
				t.Errorf("stderr %q lacks %q", stderr, tc.notice)
			}
		})
	}
}

// TestSessionStartAndEndHooks: SessionStart runs before the session's
// first request (source startup, then resume for --continue) and what it
// prints joins the system prompt; SessionEnd runs as steer closes, with
// the same session id.
func TestSessionStartAndEndHooks(t *testing.T) {
	srv := &promptServer{}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	starts, ends := newHookLog(t), newHookLog(t)
	cfg := loopbackConfig(t, ts.URL, `{`+
		commandHook("SessionStart", hookScript(t, starts.append()+"\necho 'the deploy is frozen this week'"))+`, `+
		commandHook("SessionEnd", hookScript(t, ends.append()))+`}`)
	s := newSandbox(t)
	for _, args := range [][]string{{"run", "first"}, {"--continue", "run", "second"}} {
		if code, _, stderr := s.run(nil, append([]string{"--config", cfg, "--model", "local/m"}, args...)...); code != headless.ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	reqs := srv.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	for i, r := range reqs {
		if !strings.Contains(r, "<session-start-hook>") || !strings.Contains(r, "the deploy is frozen this week") {
			t.Errorf("request %d lacks the SessionStart context: %s", i+1, r)
		}
	}
	started, ended := starts.events(t), ends.events(t)
	if len(started) != 2 || started[0]["source"] != "startup" || started[1]["source"] != "resume" {
		t.Fatalf("SessionStart inputs %v, want startup then resume", started)
	}
	if started[0]["session_id"] != started[1]["session_id"] {
		t.Errorf("--continue resumed %v, not %v", started[1]["session_id"], started[0]["session_id"])
	}
	if len(ended) != 2 || ended[0]["hook_event_name"] != "SessionEnd" || ended[0]["reason"] != "other" ||
		ended[0]["session_id"] != started[0]["session_id"] {
		t.Errorf("SessionEnd inputs %v, want one per process for the session", ended)
	}
}

// TestPreCompactHook: the guard's compaction of an overflowing session
// runs the PreCompact hooks (trigger auto) first, and SessionStart again
// after it (source compact).
func TestPreCompactHook(t *testing.T) {
	s := newSandbox(t)
	writeBigFile(t, s, plainLine)
	for i := 0; i < 3; i++ {
		args := []string{"--pace", "0", "run", "read " + bigFileName}
		if i > 0 {
			args = append([]string{"--continue"}, args...)
		}
		if code, _, stderr := s.run(nil, args...); code != headless.ExitOK {
			t.Fatalf("read %d: exit %d: %s", i+1, code, stderr)
		}
	}
	compacts, starts := newHookLog(t), newHookLog(t)
	cfg := hooksConfig(t, `{`+commandHook("PreCompact", hookScript(t, compacts.append()))+`, `+
		commandHook("SessionStart", hookScript(t, starts.append()))+`}`)
	scenario := writeFile(t, "overflow.json", overflowAt30k)
	if code, _, stderr := s.run(nil, "--config", cfg, "--continue", "--scenario", scenario, "--pace", "0", "run", "and now?"); code != headless.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	pre := compacts.events(t)
	if len(pre) != 1 || pre[0]["hook_event_name"] != "PreCompact" || pre[0]["trigger"] != "auto" {
		t.Fatalf("PreCompact inputs %v, want one, trigger auto", pre)
	}
	var sources []string
	for _, ev := range starts.events(t) {
		sources = append(sources, ev["source"].(string))
	}
	if strings.Join(sources, " ") != "resume compact" {
		t.Errorf("SessionStart sources %v, want resume then compact", sources)
	}
}

// TestProjectHooksWaitForTrust: a cloned repository's project config whose
// PreToolUse hook runs a script of the repository blocks nothing before
// `steer trust` (the hook does not run), blocks rm after it, and a change
// to the script alone revokes the trust: the hook stops running until the
// workspace is trusted again.
func TestProjectHooksWaitForTrust(t *testing.T) {
	s := newSandbox(t)
	script := filepath.Join(mkdir(t, s.workspace, ".steer", "hooks"), "no-rm.sh")
	writeScript := func(body string) {
		t.Helper()
		if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	writeScript("case \"$(cat)\" in *'\"command\":\"rm '*) echo 'rm is not allowed' >&2; exit 2;; esac\n")
	s.writeProject(`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "sh \"$CLAUDE_PROJECT_DIR/.steer/hooks/no-rm.sh\""}]}]}}`)
	victim := filepath.Join(s.workspace, "x")
	rm := func() (blocked bool) {
		t.Helper()
		if err := os.WriteFile(victim, []byte("keep"), 0o600); err != nil {
			t.Fatal(err)
		}
		s.run(nil, "--approve", "auto", "run", `call bash {"command": "rm x"}`)
		return fileExists(victim)
	}
	if rm() {
		t.Fatal("the project's hook ran before the workspace was trusted")
	}
	code, out, _ := s.run(nil, "trust")
	if code != 0 || !strings.Contains(out, "a hook runs "+script) {
		t.Fatalf("steer trust: exit %d, %q; want the hook's script named", code, out)
	}
	if !rm() {
		t.Fatal("after the trust the hook did not block rm")
	}
	writeScript("exit 0\n# changed after the trust\n")
	_, _, stderr := s.run(nil, "--approve", "auto", "run", `call bash {"command": "echo hi"}`)
	if !strings.Contains(stderr, "not trusted") {
		t.Errorf("after the script changed, stderr %q does not say the workspace is not trusted", stderr)
	}
	if code, out, _ := s.run(nil, "trust"); code != 0 || !strings.Contains(out, "trusted") {
		t.Fatalf("steer trust again: exit %d, %q", code, out)
	}
}
