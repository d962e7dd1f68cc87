package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/headless"
)

// TestDebugLogsStatements: STEER_LOG=debug makes the log record every
// SQLite statement (without its arguments); by default it records none;
// a value that names no level is refused at start.
func TestDebugLogsStatements(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		env        string
		statements bool
	}{
		{"", false},
		{"debug", true},
	} {
		t.Run("STEER_LOG="+c.env, func(t *testing.T) {
			s := newSandbox(t)
			s.setenv(runner.LogEnv, c.env)
			code, _, stderr := s.run(nil, "--state-dir", s.stateDir, "--pace", "0", "run", "a private prompt")
			if code != headless.ExitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			log, err := os.ReadFile(filepath.Join(s.stateDir, filepath.FromSlash(runner.LogFile)))
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			got := strings.Contains(string(log), `"msg":"sqlite"`)
			if got != c.statements {
				t.Fatalf("statements logged: %v, want %v:\n%s", got, c.statements, log)
			}
			if !c.statements {
				return
			}
			for _, want := range []string{`"stmt":"BEGIN"`, `"stmt":"COMMIT"`, `"conn":"writer"`, `INSERT INTO transcript_entries`} {
				if !strings.Contains(string(log), want) {
					t.Errorf("the log has no %s", want)
				}
			}
			if strings.Contains(string(log), "a private prompt") {
				t.Error("a statement's arguments are in the log")
			}
		})
	}
	t.Run("STEER_LOG=loud", func(t *testing.T) {
		s := newSandbox(t)
		s.setenv(runner.LogEnv, "loud")
		code, _, stderr := s.run(nil, "--state-dir", s.stateDir, "--pace", "0", "run", "hello")
		if code == headless.ExitOK || !strings.Contains(stderr, "STEER_LOG=loud: want debug, info, warn or error") {
			t.Errorf("exit %d, stderr %q", code, stderr)
		}
	})
}
