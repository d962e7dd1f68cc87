package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestContextFilesOrder: the files found for a workspace, outermost first,
// with where the walk up stops.
func TestContextFilesOrder(t *testing.T) {
	tests := []struct {
		name string
		// files are created under the test's root; a name ending in / is
		// a directory.
		files []string
		// ws is the workspace under the root; global "" for none.
		ws, global string
		want       []string
	}{
		{name: "global, ancestors up to the repository root, workspace",
			files: []string{"home/repo/.git/", "config/steer/AGENTS.md", "home/AGENTS.md", "home/repo/AGENTS.md",
				"home/repo/a/AGENTS.md", "home/repo/a/b/AGENTS.md"},
			ws: "home/repo/a/b", global: "config/steer",
			want: []string{"global config/steer/AGENTS.md", "ancestor home/repo/AGENTS.md",
				"ancestor home/repo/a/AGENTS.md", "workspace home/repo/a/b/AGENTS.md"}},
		{name: "CLAUDE.md where no AGENTS.md is beside it",
			files: []string{"home/repo/.git/", "home/repo/CLAUDE.md", "home/repo/a/AGENTS.md", "home/repo/a/CLAUDE.md"},
			ws:    "home/repo/a",
			want: []string{"ancestor home/repo/CLAUDE.md", "workspace home/repo/a/AGENTS.md",
				"workspace home/repo/a/CLAUDE.md skipped: AGENTS.md is beside it"}},
		{name: "the home directory stops the walk without a repository",
			files: []string{"AGENTS.md", "home/AGENTS.md", "home/p/AGENTS.md"},
			ws:    "home/p",
			want:  []string{"ancestor home/AGENTS.md", "workspace home/p/AGENTS.md"}},
		{name: "neither a repository nor home above: the workspace alone",
			files: []string{"tmp/AGENTS.md", "tmp/w/AGENTS.md"},
			ws:    "tmp/w",
			want:  []string{"workspace tmp/w/AGENTS.md"}},
		{name: "a .git file (a worktree) is a repository root",
			files: []string{"home/AGENTS.md", "home/wt/.git", "home/wt/AGENTS.md", "home/wt/x/AGENTS.md"},
			ws:    "home/wt/x",
			want:  []string{"ancestor home/wt/AGENTS.md", "workspace home/wt/x/AGENTS.md"}},
		{name: "the workspace is the repository root",
			files: []string{"home/AGENTS.md", "home/repo/.git/", "home/repo/AGENTS.md"},
			ws:    "home/repo", global: "config/steer",
			want: []string{"workspace home/repo/AGENTS.md"}},
		{name: "the global directory met on the walk is read once, as global",
			files: []string{"home/repo/.git/", "home/repo/AGENTS.md", "home/repo/ws/AGENTS.md"},
			ws:    "home/repo/ws", global: "home/repo",
			want: []string{"global home/repo/AGENTS.md", "workspace home/repo/ws/AGENTS.md"}},
		{name: "no files", files: []string{"home/repo/.git/", "home/repo/ws/"}, ws: "home/repo/ws", global: "config/steer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := newWorkspace(t.TempDir()).root
			for _, f := range tt.files {
				if strings.HasSuffix(f, "/") {
					if err := os.MkdirAll(filepath.Join(root, f), 0o755); err != nil {
						t.Fatal(err)
					}
					continue
				}
				writeFile(t, root, f, "from "+f+"\n")
			}
			if err := os.MkdirAll(filepath.Join(root, tt.ws), 0o755); err != nil {
				t.Fatal(err)
			}
			src := ContextSources{Home: filepath.Join(root, "home")}
			if tt.global != "" {
				src.Global = filepath.Join(root, tt.global)
			}
			var got []string
			for _, f := range NewContextFiles(filepath.Join(root, tt.ws), src).Load() {
				rel, _ := filepath.Rel(root, f.Path)
				line := fmt.Sprintf("%s %s", f.Level, filepath.ToSlash(rel))
				switch {
				case f.Skipped != "":
					line += " skipped: " + f.Skipped
				case f.Text != "from "+filepath.ToSlash(rel):
					t.Errorf("%s holds %q", rel, f.Text)
				}
				got = append(got, line)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("found\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
		})
	}
}

// TestContextFileReading: what of one file reaches the prompt, and why a
// file that cannot is passed over.
func TestContextFileReading(t *testing.T) {
	outside := writeFile(t, t.TempDir(), "private.md", "PRIVATE KEY MATERIAL\n")
	big := strings.Repeat("rule line\n", ContextFileMaxBytes/10+100)
	tests := []struct {
		name      string
		repo      bool
		setup     func(t *testing.T, ws string)
		text      string // a part of the text; "" for none
		truncated bool
		skipped   string
	}{
		{name: "line ends are normalised", setup: func(t *testing.T, ws string) {
			writeFile(t, ws, "AGENTS.md", "# Rules\r\n\r\nRun `make test`.\r\n")
		}, text: "# Rules\n\nRun `make test`."},
		{name: "a link inside the repository is followed", repo: true, setup: func(t *testing.T, ws string) {
			writeFile(t, ws, "docs/agents.md", "linked rules\n")
			symlink(t, "docs/agents.md", filepath.Join(ws, "AGENTS.md"))
		}, text: "linked rules"},
		{name: "a link outside the repository is refused", repo: true, setup: func(t *testing.T, ws string) {
			symlink(t, outside, filepath.Join(ws, "AGENTS.md"))
		}, skipped: "a link leading outside the repository (to " + newWorkspace(outside).root + ")"},
		{name: "without a repository a link may not leave its directory", setup: func(t *testing.T, ws string) {
			symlink(t, outside, filepath.Join(ws, "AGENTS.md"))
		}, skipped: "a link leading outside its directory"},
		{name: "a dangling link", setup: func(t *testing.T, ws string) {
			symlink(t, "gone.md", filepath.Join(ws, "AGENTS.md"))
		}, skipped: "cannot be read: no such file or directory"},
		{name: "a directory", setup: func(t *testing.T, ws string) {
			if err := os.Mkdir(filepath.Join(ws, "AGENTS.md"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, skipped: "not a regular file (a directory)"},
		{name: "binary", setup: func(t *testing.T, ws string) {
			writeFile(t, ws, "AGENTS.md", "\x00\x01\x02")
		}, skipped: "not text (binary)"},
		{name: "invalid UTF-8", setup: func(t *testing.T, ws string) {
			writeFile(t, ws, "AGENTS.md", "caf\xe9 rules, written in Latin-1\n")
		}, skipped: "not valid UTF-8 text"},
		{name: "a big file is cut, with a note", setup: func(t *testing.T, ws string) {
			writeFile(t, ws, "AGENTS.md", big)
		}, text: "rule line\nrule line\n\n[this file is 65.0 KB; only its first 64.0 KB are shown", truncated: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := newWorkspace(t.TempDir()).root
			if tt.repo {
				if err := os.Mkdir(filepath.Join(ws, ".git"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			tt.setup(t, ws)
			files := NewContextFiles(ws, ContextSources{}).Load()
			if len(files) != 1 {
				t.Fatalf("found %+v, want AGENTS.md alone", files)
			}
			f := files[0]
			if !strings.Contains(f.Skipped, tt.skipped) || (tt.skipped == "") != (f.Skipped == "") {
				t.Errorf("skipped = %q, want %q", f.Skipped, tt.skipped)
			}
			if tt.text != "" && !strings.Contains(f.Text, tt.text) || tt.text == "" && f.Text != "" {
				t.Errorf("text = %.200q, want it to hold %q", f.Text, tt.text)
			}
			if f.Truncated != tt.truncated || len(f.Text) > ContextFileMaxBytes+200 {
				t.Errorf("truncated = %v with %d bytes of text, want %v", f.Truncated, len(f.Text), tt.truncated)
			}
			if strings.Contains(ContextPrompt(files), "PRIVATE") {
				t.Error("the prompt carries the file a link led to")
			}
		})
	}
}
