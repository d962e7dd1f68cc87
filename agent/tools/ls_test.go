package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLs(t *testing.T) {
	ws := t.TempDir()
	for _, name := range []string{"b.txt", "A.md", ".hidden", "c/x", "Zed/y", "a.go"} {
		writeFile(t, ws, name, "x")
	}
	if err := os.Symlink(filepath.Join(ws, "c"), filepath.Join(ws, "link")); err != nil {
		t.Fatal(err)
	}
	many := filepath.Join(ws, "many")
	for _, name := range []string{"e", "d", "c", "b", "a"} {
		writeFile(t, many, name, "")
	}
	if err := os.Mkdir(filepath.Join(ws, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name    string
		args    map[string]any
		want    string
		details LsDetails
		isError bool
	}{
		{name: "workspace by default", args: map[string]any{},
			want:    ".hidden\na.go\nA.md\nb.txt\nc/\nempty/\nlink/\nmany/\nZed/",
			details: LsDetails{Total: 9, Shown: 9}},
		{name: "relative path", args: map[string]any{"path": "c"},
			want: "x", details: LsDetails{Total: 1, Shown: 1}},
		{name: "limit", args: map[string]any{"path": many, "limit": 2.0},
			want:    "a\nb\n\n[showing 2 of 5 entries; raise limit to see more]",
			details: LsDetails{Total: 5, Shown: 2, Truncated: true}},
		{name: "empty directory", args: map[string]any{"path": "empty"},
			want: "(empty directory)", details: LsDetails{}},
		{name: "missing path", args: map[string]any{"path": "nope"},
			want: "directory not found: " + filepath.Join(ws, "nope"), isError: true},
		{name: "file", args: map[string]any{"path": "b.txt"},
			want: filepath.Join(ws, "b.txt") + " is a file, not a directory; use read to see it", isError: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := execute(t, Ls(ws), tt.args)
			if got := text(r); got != tt.want {
				t.Errorf("text = %q, want %q", got, tt.want)
			}
			if r.IsError != tt.isError {
				t.Errorf("IsError = %v, want %v", r.IsError, tt.isError)
			}
			if tt.isError {
				return
			}
			d, _ := r.Details.(LsDetails)
			if !strings.HasPrefix(d.Path, "/") {
				t.Errorf("details path %q is not absolute", d.Path)
			}
			d.Path = ""
			if d != tt.details {
				t.Errorf("details = %+v, want %+v", d, tt.details)
			}
		})
	}
}
