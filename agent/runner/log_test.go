package runner

import (
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
		logger, closeLog, err := OpenLog(dir)
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
	if _, _, err := OpenLog(file); err == nil || !strings.Contains(err.Error(), "cannot write the log "+file) {
		t.Errorf("OpenLog on a file = %v", err)
	}
}
