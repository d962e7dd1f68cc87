package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStateDir(t *testing.T) {
	root := t.TempDir()
	t.Setenv("HOME", filepath.Join(root, "home"))
	tests := []struct {
		name string
		flag string
		env  map[string]string
		want string
	}{
		{"the flag wins", filepath.Join(root, "flag"),
			map[string]string{"STEER_STATE_DIR": filepath.Join(root, "env")}, filepath.Join(root, "flag")},
		{"STEER_STATE_DIR", "", map[string]string{"STEER_STATE_DIR": filepath.Join(root, "env"),
			"XDG_STATE_HOME": filepath.Join(root, "xdg")}, filepath.Join(root, "env")},
		{"XDG_STATE_HOME", "", map[string]string{"XDG_STATE_HOME": filepath.Join(root, "xdg")}, filepath.Join(root, "xdg", "steer")},
		{"the home directory", "", nil, filepath.Join(root, "home", ".local", "state", "steer")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := StateDir(tt.flag, func(k string) string { return tt.env[k] })
			if err != nil || got != tt.want {
				t.Fatalf("StateDir = %q, %v; want %q", got, err, tt.want)
			}
			if fi, err := os.Stat(got); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
				t.Errorf("%s: %v, %v; want a directory 0700", got, fi.Mode(), err)
			}
		})
	}
}

func TestStateDirThatCannotBeUsed(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := StateDir(filepath.Join(file, "steer"), func(string) string { return "" })
	if err == nil || !strings.HasPrefix(err.Error(), "cannot use state directory "+filepath.Join(file, "steer")+": ") {
		t.Errorf("StateDir under a file = %v", err)
	}
}
