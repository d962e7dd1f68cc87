package tools

import (
	"path/filepath"
	"testing"
)

// TestContextShown: how a list names a context file's directory — the
// workspace and its ancestors from the workspace, the rest from ~ when it
// is under home, else as it is — so that the file's name fits a column.
func TestContextShown(t *testing.T) {
	ws, home := filepath.FromSlash("/home/u/src/repo/a/ws"), filepath.FromSlash("/home/u")
	tests := []struct{ dir, home, want string }{
		{ws, home, "."},
		{filepath.FromSlash("/home/u/src/repo/a"), home, ".."},
		{filepath.FromSlash("/home/u/src/repo"), home, filepath.FromSlash("../..")},
		{filepath.FromSlash("/home/u/.config/steer"), home, filepath.FromSlash("~/.config/steer")},
		{filepath.FromSlash("/etc/steer"), home, filepath.FromSlash("/etc/steer")},
		{filepath.FromSlash("/home/u/.config/steer"), "", filepath.FromSlash("/home/u/.config/steer")},
		{filepath.FromSlash("/home/u/src/repo/a/ws-other"), home, filepath.FromSlash("~/src/repo/a/ws-other")},
	}
	for _, tt := range tests {
		if got := contextShown(tt.dir, ws, tt.home); got != tt.want {
			t.Errorf("contextShown(%q, home %q) = %q, want %q", tt.dir, tt.home, got, tt.want)
		}
	}
}
