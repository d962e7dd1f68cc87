package tools

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// grepEngines are the searches to test: Go always, ripgrep when rg is on
// the PATH. Both must give the same results.
func grepEngines(t *testing.T, ws string) map[string]grepTool {
	engines := map[string]grepTool{"go": {ws: newWorkspace(ws)}}
	if rg, err := exec.LookPath("rg"); err == nil {
		engines["ripgrep"] = grepTool{ws: newWorkspace(ws), rg: rg}
	} else {
		t.Log("rg is not on the PATH: only the Go search is tested")
	}
	return engines
}

func TestGrep(t *testing.T) {
	ws := searchTree(t)
	writeFile(t, ws, "docs/long.txt", "needle "+strings.Repeat("x", 1000)+"\n")
	allFuncs := ".hidden.go:1: package hidden // func-free\nkeep.log:1: func kept\nmain.go:3: func main() {\n" +
		"main_test.go:3: func TestMain() {}\nsrc/a.go:3: func A() int { return 1 }\nsrc/b.ts:1: export function b() {}\nsrc/deep/c.go:3: func C() {}"
	tests := []struct {
		name    string
		args    map[string]any
		want    string
		isError bool
		matches int
		limited bool
	}{
		{name: "regexp over the tree, ignored, binary, .git and linked files left out",
			args: map[string]any{"pattern": "func"}, want: allFuncs, matches: 7},
		{name: "anchored regexp", args: map[string]any{"pattern": `^func [A-Z]\w*\(\)`},
			want: "main_test.go:3: func TestMain() {}\nsrc/a.go:3: func A() int { return 1 }\nsrc/deep/c.go:3: func C() {}", matches: 3},
		{name: "case-sensitive by default", args: map[string]any{"pattern": "hello"}, want: "No matches found"},
		{name: "ignoreCase", args: map[string]any{"pattern": "hello", "ignoreCase": true},
			want: "main.go:4: \tprintln(\"Hello\")", matches: 1},
		{name: "literal", args: map[string]any{"pattern": "println(", "literal": true},
			want: "main.go:4: \tprintln(\"Hello\")", matches: 1},
		{name: "glob on names", args: map[string]any{"pattern": "func", "glob": "*_test.go"},
			want: "main_test.go:3: func TestMain() {}", matches: 1},
		{name: "glob on paths", args: map[string]any{"pattern": "func", "glob": "src/**/*.go"},
			want: "src/a.go:3: func A() int { return 1 }\nsrc/deep/c.go:3: func C() {}", matches: 2},
		{name: "context lines", args: map[string]any{"pattern": "println|TestMain", "context": 1.0},
			want: "main.go-3- func main() {\nmain.go:4: \tprintln(\"Hello\")\nmain.go-5- }\n--\n" +
				"main_test.go-2- \nmain_test.go:3: func TestMain() {}", matches: 2},
		{name: "limit", args: map[string]any{"pattern": "func", "limit": 2.0},
			want:    ".hidden.go:1: package hidden // func-free\nkeep.log:1: func kept\n\n[2 matches limit reached. Use limit=4 for more, or refine pattern]",
			matches: 2, limited: true},
		{name: "limit keeps the context after the last match", args: map[string]any{"pattern": "main", "limit": 1.0, "context": 1.0},
			want:    "main.go:1: package main\nmain.go-2- \n\n[1 matches limit reached. Use limit=2 for more, or refine pattern]",
			matches: 1, limited: true},
		{name: "one file", args: map[string]any{"pattern": "func", "path": "main.go"},
			want: "main.go:3: func main() {", matches: 1},
		{name: "in a subdirectory, its ancestors' .gitignore applies", args: map[string]any{"pattern": "func", "path": "src/deep"},
			want: "c.go:3: func C() {}", matches: 1},
		{name: "long lines are cut", args: map[string]any{"pattern": "needle"},
			want: "docs/long.txt:1: needle " + strings.Repeat("x", grepLineRunes-7) + "… [truncated]\n\n" +
				"[Some lines truncated to 500 chars. Use read to see full lines]", matches: 1},
		{name: "links are not followed", args: map[string]any{"pattern": "secret"}, want: "No matches found"},
		{name: "invalid regexp", args: map[string]any{"pattern": "println("},
			want:    "invalid regular expression \"println(\": missing closing ): `println(` (set literal to search for the text as it is)",
			isError: true},
		{name: "invalid glob", args: map[string]any{"pattern": "x", "glob": "[a"},
			want: `invalid glob "[a" (use *, **, ?, [abc] and {a,b})`, isError: true},
		{name: "missing path", args: map[string]any{"pattern": "x", "path": "nope"},
			want: "path not found: " + filepath.Join(ws, "nope"), isError: true},
	}
	for engine, tool := range grepEngines(t, ws) {
		for _, tt := range tests {
			t.Run(engine+"/"+tt.name, func(t *testing.T) {
				r := execute(t, tool, tt.args)
				if got := text(r); got != tt.want || r.IsError != tt.isError {
					t.Errorf("result\n%q (error %v), want\n%q (error %v)", got, r.IsError, tt.want, tt.isError)
				}
				if tt.isError {
					return
				}
				d := r.Details.(GrepDetails)
				if d.Matches != tt.matches || d.LimitReached != tt.limited || d.Engine != engine {
					t.Errorf("details %+v, want %d matches, limit reached %v, engine %s", d, tt.matches, tt.limited, engine)
				}
			})
		}
	}
}

// TestGrepOutputCap: a search matching every line of a big file stops at
// maxBytes.
func TestGrepOutputCap(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, "big.txt", strings.Repeat(strings.Repeat("y", 300)+"\n", 2000))
	for engine, tool := range grepEngines(t, ws) {
		r := execute(t, tool, map[string]any{"pattern": "y", "limit": 5000.0})
		got := text(r)
		d := r.Details.(GrepDetails)
		if len(got) > maxBytes+300 || !d.LimitReached || !strings.Contains(got, "KB output limit reached after") {
			t.Errorf("%s: %d bytes, details %+v, ends %q", engine, len(got), d, got[max(0, len(got)-150):])
		}
	}
}

// TestGrepCancelled: a cancelled search returns at once with an error.
func TestGrepCancelled(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, "a.txt", strings.Repeat("line\n", 10000))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for engine, tool := range grepEngines(t, ws) {
		r, err := tool.Execute(ctx, "c", map[string]any{"pattern": "line"}, nil)
		if err != nil || !r.IsError || !strings.Contains(text(r), "context canceled") {
			t.Errorf("%s: result %q, %v; want a cancelled search", engine, text(r), err)
		}
	}
}
