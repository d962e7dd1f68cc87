package tools

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// searchTree builds a workspace for find and grep: .gitignore files at two
// levels (negations at both), an ignored directory, a .git directory, a binary
// file, hidden files, and links to a directory and a file outside.
func searchTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	ws, outside := filepath.Join(root, "ws"), filepath.Join(root, "outside")
	for name, content := range map[string]string{
		".gitignore":             "build/\n*.log\n!keep.log\n*.egg-info\n# a comment\n\n",
		".git/config":            "func git\n",
		".hidden.go":             "package hidden // func-free\n",
		"main.go":                "package main\n\nfunc main() {\n\tprintln(\"Hello\")\n}\n",
		"main_test.go":           "package main\n\nfunc TestMain() {}\n",
		"app.log":                "func in log\n",
		"keep.log":               "func kept\n",
		"bin.dat":                "func\x00binary\n",
		"build/out.go":           "func Built() {}\n",
		"src/.gitignore":         "gen.go\n",
		"src/a.go":               "package src\n\nfunc A() int { return 1 }\n",
		"src/b.ts":               "export function b() {}\n",
		"src/gen.go":             "func Generated() {}\n",
		"src/deep/c.go":          "package deep\n\nfunc C() {}\n",
		"src/deep/gen.go":        "func DeepGenerated() {}\n",
		"src/deep/c.spec.ts":     "it('works')\n",
		"docs/readme.md":         "# Docs\n",
		"docs/.gitignore":        "!notes.log\n",
		"docs/notes.log":         "notes\n",
		"pkg.egg-info/PKG-INFO":  "Name: pkg\n",
		"../outside/secret.txt":  "func secret\n",
		"../outside/secret2.txt": "func secret\n",
	} {
		writeFile(t, ws, name, content)
	}
	for link, to := range map[string]string{"link-out": outside, "link-file": filepath.Join(outside, "secret2.txt")} {
		if err := os.Symlink(to, filepath.Join(ws, link)); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

func TestFind(t *testing.T) {
	ws := searchTree(t)
	tests := []struct {
		name    string
		args    map[string]any
		want    string
		isError bool
		details FindDetails
	}{
		{name: "name at any depth", args: map[string]any{"pattern": "*.go"},
			want:    ".hidden.go\nmain.go\nmain_test.go\nsrc/a.go\nsrc/deep/c.go",
			details: FindDetails{Shown: 5}},
		{name: "path pattern", args: map[string]any{"pattern": "src/**/*.ts"},
			want: "src/b.ts\nsrc/deep/c.spec.ts", details: FindDetails{Shown: 2}},
		{name: "double star first", args: map[string]any{"pattern": "**/*.spec.ts"},
			want: "src/deep/c.spec.ts", details: FindDetails{Shown: 1}},
		{name: "braces", args: map[string]any{"pattern": "*.{md,ts}"},
			want: "docs/readme.md\nsrc/b.ts\nsrc/deep/c.spec.ts", details: FindDetails{Shown: 3}},
		{name: "negated ignore keeps a file", args: map[string]any{"pattern": "*.log"},
			want: "docs/notes.log\nkeep.log", details: FindDetails{Shown: 2}},
		{name: "a deeper .gitignore re-includes what its ancestor's ignores", args: map[string]any{"pattern": "notes.log"},
			want: "docs/notes.log", details: FindDetails{Shown: 1}},
		{name: "inside a directory an ancestor's pattern ignores, nothing", args: map[string]any{"pattern": "*", "path": "pkg.egg-info"},
			want: "No files found matching pattern"},
		{name: "inside a directory an ancestor ignores with a slash, nothing", args: map[string]any{"pattern": "*", "path": "build"},
			want: "No files found matching pattern"},
		{name: "directories end with a slash", args: map[string]any{"pattern": "deep"},
			want: "src/deep/", details: FindDetails{Shown: 1}},
		{name: "in a subdirectory, its ancestors' .gitignore applies", args: map[string]any{"pattern": "*.go", "path": "src/deep"},
			want: "c.go", details: FindDetails{Shown: 1}},
		{name: "a link is listed, never entered", args: map[string]any{"pattern": "*secret*"},
			want: "No files found matching pattern"},
		{name: "links by name", args: map[string]any{"pattern": "link-*"},
			want: "link-file\nlink-out", details: FindDetails{Shown: 2}},
		{name: "limit", args: map[string]any{"pattern": "*.go", "limit": 2.0},
			want:    ".hidden.go\nmain.go\n\n[2 results limit reached. Use limit=4 for more, or refine pattern]",
			details: FindDetails{Shown: 2, LimitReached: true}},
		{name: "limit exactly met", args: map[string]any{"pattern": "*.ts", "limit": 2.0},
			want: "src/b.ts\nsrc/deep/c.spec.ts", details: FindDetails{Shown: 2}},
		{name: "invalid pattern", args: map[string]any{"pattern": "[a"},
			want: `invalid glob pattern "[a" (use *, **, ?, [abc] and {a,b})`, isError: true},
		{name: "missing directory", args: map[string]any{"pattern": "*", "path": "nope"},
			want: "directory not found: " + filepath.Join(ws, "nope"), isError: true},
		{name: "a file", args: map[string]any{"pattern": "*", "path": "main.go"},
			want: filepath.Join(ws, "main.go") + " is a file, not a directory; use read to see it", isError: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := execute(t, Find(ws), tt.args)
			if got := text(r); got != tt.want || r.IsError != tt.isError {
				t.Errorf("result %q (error %v), want %q (error %v)", got, r.IsError, tt.want, tt.isError)
			}
			if tt.isError {
				return
			}
			d := r.Details.(FindDetails)
			if !strings.HasPrefix(d.Path, ws) {
				t.Errorf("details path %q", d.Path)
			}
			d.Path = ""
			if d != tt.details {
				t.Errorf("details %+v, want %+v", d, tt.details)
			}
		})
	}
}

// TestFindOutputCap: many long names stop at maxBytes with a note.
func TestFindOutputCap(t *testing.T) {
	ws := t.TempDir()
	long := strings.Repeat("n", 200)
	for i := range 300 {
		writeFile(t, ws, filepath.Join(string(rune('a'+i%26))+long[:100], long+string(rune('a'+i/26))), "")
	}
	r := execute(t, Find(ws), map[string]any{"pattern": "*"})
	got := text(r)
	if len(got) > maxBytes+200 || !strings.HasSuffix(got, "KB output limit reached after "+
		strconv.Itoa(r.Details.(FindDetails).Shown)+" results; refine pattern or path]") {
		t.Errorf("result of %d bytes ends %q", len(got), got[max(0, len(got)-120):])
	}
}
