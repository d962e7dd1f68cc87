package runner

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenLogAppends: the log is created private, and a second steer adds
// to it rather than starting over.
func TestOpenLogAppends(t *testing.T) {
	dir := t.TempDir()
	for _, msg := range []string{"first", "second"} {
		logger, closeLog, err := OpenLog(dir, slog.LevelInfo)
		if err != nil {
			t.Fatal(err)
		}
		logger.Info(msg)
		closeLog()
	}
	path := filepath.Join(dir, LogFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(string(data)), "\n"); len(lines) != 2 ||
		!strings.Contains(lines[0], `"msg":"first"`) || !strings.Contains(lines[1], `"msg":"second"`) {
		t.Errorf("log:\n%s", data)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("log file mode %v (%v), want 0600", fi.Mode().Perm(), err)
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("log directory mode %v (%v), want 0700", fi.Mode().Perm(), err)
	}
}

func TestOpenLogNamesTheFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "not-a-directory")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := OpenLog(file, slog.LevelInfo); err == nil || !strings.Contains(err.Error(), "cannot write the log "+file) {
		t.Errorf("OpenLog on a file = %v", err)
	}
}

// TestLogLevel: STEER_LOG names a level (info when unset); anything else
// is refused with the names that work.
func TestLogLevel(t *testing.T) {
	for _, c := range []struct {
		env  string
		want slog.Level
		err  bool
	}{
		{"", slog.LevelInfo, false},
		{"debug", slog.LevelDebug, false},
		{"DEBUG", slog.LevelDebug, false},
		{" warn ", slog.LevelWarn, false},
		{"error", slog.LevelError, false},
		{"verbose", 0, true},
		{"info+2", 0, true},
	} {
		got, err := LogLevel(func(k string) string {
			if k == LogEnv {
				return c.env
			}
			return ""
		})
		if c.err {
			if err == nil || !strings.Contains(err.Error(), "want debug, info, warn or error") {
				t.Errorf("%q: %v, %v; want the error", c.env, got, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: %v, %v; want %v", c.env, got, err, c.want)
		}
	}
}

// TestOpenLogLevel: records below the level asked for are left out.
func TestOpenLogLevel(t *testing.T) {
	dir := t.TempDir()
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelDebug} {
		logger, closeLog, err := OpenLog(dir, level)
		if err != nil {
			t.Fatal(err)
		}
		logger.Debug("at " + level.String())
		closeLog()
	}
	data, err := os.ReadFile(filepath.Join(dir, LogFile))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(data)); strings.Count(got, "\n") != 0 || !strings.Contains(got, `"msg":"at DEBUG"`) || strings.Contains(got, "at INFO") {
		t.Errorf("log:\n%s", data)
	}
}
