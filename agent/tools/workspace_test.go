package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// confinedTree builds a workspace and a directory beside it holding a
// secret, with links between them:
//
//	ws/in.txt, ws/sub/deep.txt
//	ws/link-in      -> ws/sub/deep.txt
//	ws/link-out     -> outside/secret.txt
//	ws/dir-out      -> outside
//	ws/dangling-out -> outside/new.txt (missing)
//	ws/loop         -> ws/loop
//	outside/secret.txt
func confinedTree(t *testing.T) (ws, outside string) {
	t.Helper()
	root := t.TempDir()
	ws, outside = filepath.Join(root, "ws"), filepath.Join(root, "outside")
	writeFile(t, ws, "in.txt", "inside\n")
	writeFile(t, ws, "sub/deep.txt", "deep\n")
	writeFile(t, outside, "secret.txt", "SECRET CONTENT\n")
	for link, to := range map[string]string{
		"link-in":      filepath.Join(ws, "sub", "deep.txt"),
		"link-out":     filepath.Join(outside, "secret.txt"),
		"dir-out":      outside,
		"dangling-out": filepath.Join(outside, "new.txt"),
		"loop":         filepath.Join(ws, "loop"),
		"rel-out":      "../outside/secret.txt",
	} {
		if err := os.Symlink(to, filepath.Join(ws, link)); err != nil {
			t.Fatal(err)
		}
	}
	return ws, outside
}

func TestLocate(t *testing.T) {
	ws, outside := confinedTree(t)
	w := newWorkspace(ws)
	tests := []struct {
		name   string
		path   string
		want   string // resolved path
		inside bool
		err    string
	}{
		{"empty is the root", "", ws, true, ""},
		{"dot is the root", ".", ws, true, ""},
		{"relative file", "in.txt", filepath.Join(ws, "in.txt"), true, ""},
		{"dot-dot that stays inside", "sub/../in.txt", filepath.Join(ws, "in.txt"), true, ""},
		{"dot-dot out", "../outside/secret.txt", filepath.Join(outside, "secret.txt"), false, ""},
		{"dot-dot out through a subdirectory", "sub/../../outside", outside, false, ""},
		{"parent of the root", "..", filepath.Dir(ws), false, ""},
		{"absolute inside", filepath.Join(ws, "sub", "deep.txt"), filepath.Join(ws, "sub", "deep.txt"), true, ""},
		{"absolute outside", "/etc/passwd", "/etc/passwd", false, ""},
		{"symlink inside", "link-in", filepath.Join(ws, "sub", "deep.txt"), true, ""},
		{"symlink out", "link-out", filepath.Join(outside, "secret.txt"), false, ""},
		{"relative symlink out", "rel-out", filepath.Join(outside, "secret.txt"), false, ""},
		{"through a symlinked directory", "dir-out/secret.txt", filepath.Join(outside, "secret.txt"), false, ""},
		{"new file below a symlinked directory", "dir-out/a/b.txt", filepath.Join(outside, "a", "b.txt"), false, ""},
		{"dangling symlink out", "dangling-out", filepath.Join(outside, "new.txt"), false, ""},
		{"new file inside", "new/dir/file.txt", filepath.Join(ws, "new", "dir", "file.txt"), true, ""},
		{"below a file", "in.txt/x", filepath.Join(ws, "in.txt", "x"), true, ""},
		{"a name that starts like the root", "../ws-other/x", filepath.Join(filepath.Dir(ws), "ws-other", "x"), false, ""},
		{"symlink loop", "loop", "", false, "too many levels of symbolic links"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := w.locate(tt.path)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("locate(%q) error = %v, want %q", tt.path, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("locate(%q): %v", tt.path, err)
			}
			if got.path != tt.want || got.inside != tt.inside {
				t.Errorf("locate(%q) = %s inside %v, want %s inside %v", tt.path, got.path, got.inside, tt.want, tt.inside)
			}
		})
	}
}

// TestWorkspaceThroughSymlink: a workspace reached through a symbolic link
// (as /tmp is on some systems) is the same workspace.
func TestWorkspaceThroughSymlink(t *testing.T) {
	real := t.TempDir()
	writeFile(t, real, "a.txt", "a\n")
	alias := filepath.Join(t.TempDir(), "alias")
	if err := os.Symlink(real, alias); err != nil {
		t.Fatal(err)
	}
	w := newWorkspace(alias)
	for _, p := range []string{"a.txt", filepath.Join(alias, "a.txt"), filepath.Join(real, "a.txt")} {
		if got, err := w.locate(p); err != nil || !got.inside {
			t.Errorf("locate(%q) = %+v, %v; want inside", p, got, err)
		}
	}
}

// TestFileToolsRefuseOutside runs every file tool on paths that lead out of
// the workspace: each refuses, names the path, never shows the secret and
// changes nothing; with the grant an approval gives, reads go through.
func TestFileToolsRefuseOutside(t *testing.T) {
	ws, outside := confinedTree(t)
	tests := []struct {
		tool string
		args map[string]any
	}{
		{"read", map[string]any{"path": "../outside/secret.txt"}},
		{"read", map[string]any{"path": filepath.Join(outside, "secret.txt")}},
		{"read", map[string]any{"path": "link-out"}},
		{"read", map[string]any{"path": "dir-out/secret.txt"}},
		{"write", map[string]any{"path": "dangling-out", "content": "x"}},
		{"write", map[string]any{"path": "dir-out/new.txt", "content": "x"}},
		{"write", map[string]any{"path": "../outside/secret.txt", "content": "x"}},
		{"edit", map[string]any{"path": "link-out", "edits": []any{map[string]any{"oldText": "SECRET", "newText": "x"}}}},
		{"ls", map[string]any{"path": "dir-out"}},
		{"ls", map[string]any{"path": ".."}},
		{"find", map[string]any{"pattern": "*", "path": "dir-out"}},
		{"grep", map[string]any{"pattern": "SECRET", "path": "../outside"}},
		{"grep", map[string]any{"pattern": "SECRET", "path": "link-out"}},
	}
	byName := map[string]int{}
	tools := New(ws)
	for i, tool := range tools {
		byName[tool.Spec().Name] = i
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.args["path"].(string), func(t *testing.T) {
			r := execute(t, tools[byName[tt.tool]], tt.args)
			got := text(r)
			if !r.IsError || !strings.Contains(got, "outside the workspace") {
				t.Errorf("result %q (error %v), want a refusal", got, r.IsError)
			}
			if strings.Contains(got, "SECRET CONTENT") {
				t.Errorf("the refusal shows the content: %q", got)
			}
		})
	}
	secret, err := os.ReadFile(filepath.Join(outside, "secret.txt"))
	if err != nil || string(secret) != "SECRET CONTENT\n" {
		t.Errorf("outside/secret.txt = %q, %v; want it untouched", secret, err)
	}
	for _, name := range []string{"new.txt", "a"} {
		if _, err := os.Lstat(filepath.Join(outside, name)); err == nil {
			t.Errorf("outside/%s was created", name)
		}
	}

	r, err := Read(ws).Execute(withOutsideGrant(context.Background()), "c", map[string]any{"path": "link-out"}, nil)
	if err != nil || r.IsError || !strings.Contains(text(r), "SECRET CONTENT") {
		t.Errorf("granted read = %q, %v; want the content", text(r), err)
	}
}
