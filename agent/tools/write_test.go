package tools

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestWrite(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, "old.txt", "one\ntwo\n")
	if err := os.Chmod(filepath.Join(ws, "old.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(ws, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(ws, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		path    string
		content string
		want    string // the result text
		isError bool
		file    string // the file's content afterwards
		mode    os.FileMode
		diff    string
		created bool
	}{
		{name: "new file", path: "new.txt", content: "hello\n",
			want: "Created " + filepath.Join(ws, "new.txt") + ": 6 bytes, 1 lines", file: "hello\n", mode: 0o644, created: true},
		{name: "new file in new directories", path: "a/b/c.txt", content: "x",
			want: "Created " + filepath.Join(ws, "a/b/c.txt") + ": 1 bytes, 1 lines", file: "x", mode: 0o644, created: true},
		{name: "overwrite keeps the mode", path: "old.txt", content: "one\n2\n",
			want: "Wrote " + filepath.Join(ws, "old.txt") + ": 6 bytes, 2 lines", file: "one\n2\n", mode: 0o600,
			diff: "--- a/old.txt\n+++ b/old.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n"},
		{name: "empty content", path: "empty.txt", content: "",
			want: "Created " + filepath.Join(ws, "empty.txt") + ": 0 bytes, 0 lines", file: "", mode: 0o644, created: true},
		{name: "a directory", path: "dir", content: "x",
			want: "cannot write " + filepath.Join(ws, "dir") + ": it is a directory", isError: true},
		{name: "a FIFO", path: "fifo", content: "x",
			want: "cannot write " + filepath.Join(ws, "fifo") + ": it is a named pipe", isError: true},
		{name: "below a file", path: "old.txt/x", content: "x",
			want: "cannot write " + filepath.Join(ws, "old.txt/x") + ": stat " + filepath.Join(ws, "old.txt/x") + ": not a directory", isError: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := execute(t, Write(ws), map[string]any{"path": tt.path, "content": tt.content})
			if got := text(r); got != tt.want || r.IsError != tt.isError {
				t.Errorf("result %q (error %v), want %q (error %v)", got, r.IsError, tt.want, tt.isError)
			}
			if tt.isError {
				return
			}
			path := filepath.Join(ws, tt.path)
			data, err := os.ReadFile(path)
			if err != nil || string(data) != tt.file {
				t.Errorf("file = %q, %v; want %q", data, err, tt.file)
			}
			if info, err := os.Stat(path); err != nil || info.Mode().Perm() != tt.mode {
				t.Errorf("mode = %v, want %v", info.Mode().Perm(), tt.mode)
			}
			d := r.Details.(WriteDetails)
			if d.Path != path || d.Diff != tt.diff || d.Created != tt.created {
				t.Errorf("details %+v, want path %s, created %v, diff %q", d, path, tt.created, tt.diff)
			}
		})
	}
	entries, _ := os.ReadDir(ws)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".steer-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

// TestWriteThroughSymlinkInside writes the target of a link that stays in
// the workspace, leaving the link a link.
func TestWriteThroughSymlinkInside(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, "real.txt", "old")
	if err := os.Symlink("real.txt", filepath.Join(ws, "alias.txt")); err != nil {
		t.Fatal(err)
	}
	r := execute(t, Write(ws), map[string]any{"path": "alias.txt", "content": "new"})
	if r.IsError {
		t.Fatalf("write: %s", text(r))
	}
	if data, _ := os.ReadFile(filepath.Join(ws, "real.txt")); string(data) != "new" {
		t.Errorf("real.txt = %q, want new", data)
	}
	if info, err := os.Lstat(filepath.Join(ws, "alias.txt")); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("alias.txt is no longer a symlink")
	}
}

func TestWriteDescribe(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, "old.txt", "a\n")
	writeFile(t, ws, "bin", "\x00\x01")
	tests := []struct {
		args    map[string]any
		summary string
		diff    string
	}{
		{map[string]any{"path": "old.txt", "content": "b\n"}, "write old.txt (1 lines, 2 B)", "--- a/old.txt\n+++ b/old.txt\n@@ -1 +1 @@\n-a\n+b\n"},
		{map[string]any{"path": "old.txt", "content": "a\n"}, "write old.txt (1 lines, 2 B)", ""},
		{map[string]any{"path": "n.txt", "content": "x\n"}, "create n.txt (1 lines, 2 B)", "--- a/n.txt\n+++ b/n.txt\n@@ -0,0 +1 @@\n+x\n"},
		{map[string]any{"path": "bin", "content": "x"}, "write bin (1 lines, 1 B)", "--- a/bin\n+++ b/bin\n@@ -0,0 +1 @@\n+x\n\\ No newline at end of file\n"},
	}
	for _, tt := range tests {
		a := Write(ws).(Describer).Describe(tt.args)
		if a.Summary != tt.summary || a.Diff != tt.diff || !a.Mutating || a.Outside {
			t.Errorf("Describe(%v) = %+v, want summary %q, diff %q", tt.args, a, tt.summary, tt.diff)
		}
	}
}
