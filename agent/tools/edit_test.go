package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// edits builds the edits argument from old, new pairs.
func edits(pairs ...string) []any {
	var out []any
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, map[string]any{"oldText": pairs[i], "newText": pairs[i+1]})
	}
	return out
}

const goFile = `package main

import "fmt"

func main() {
	fmt.Println("hello")
	fmt.Println("world")
}

func helper(a int) int {
	return a + 1
}
`

func TestEdit(t *testing.T) {
	tests := []struct {
		name    string
		file    string // the file before
		edits   []any
		want    string // the file after; the original when the edit fails
		result  []string
		isError bool
		first   int
	}{
		{name: "one replacement", file: goFile, edits: edits(`fmt.Println("hello")`, `fmt.Println("hi")`),
			want:   strings.Replace(goFile, `"hello"`, `"hi"`, 1),
			result: []string{"Edited", "1 replacement applied, first change at line 6"}, first: 6},
		{name: "several, against the original, in any order", file: goFile,
			edits:  edits("return a + 1", "return a + 2", "import \"fmt\"", "import \"os\""),
			want:   strings.Replace(strings.Replace(goFile, "a + 1", "a + 2", 1), `"fmt"`+"\n\nfunc", `"os"`+"\n\nfunc", 1),
			result: []string{"2 replacements applied, first change at line 3"}, first: 3},
		{name: "a later edit's text made by an earlier one is not matched", file: "a\nb\n",
			edits: edits("a", "b", "b\n", "c\n"), want: "b\nc\n", result: []string{"2 replacements"}, first: 1},
		{name: "CRLF file keeps its line endings", file: "one\r\ntwo\r\nthree\r\n", edits: edits("two\nthree", "2\n3"),
			want: "one\r\n2\r\n3\r\n", result: []string{"first change at line 2"}, first: 2},
		{name: "BOM is kept", file: bom + "x = 1\n", edits: edits("x = 1", "x = 2"),
			want: bom + "x = 2\n", result: []string{"Edited"}, first: 1},
		{name: "deletion", file: "keep\ndrop\nkeep2\n", edits: edits("drop\n", ""),
			want: "keep\nkeep2\n", result: []string{"Edited"}, first: 2},
		{name: "ambiguous", file: goFile, edits: edits("fmt.Println(", "log.Println("), want: goFile, isError: true,
			result: []string{"nothing was written", "edits[0].oldText matches 2 times (at lines 6, 7); include more of the surrounding lines"}},
		{name: "many matches", file: strings.Repeat("x\n", 9), edits: edits("x", "y"), want: strings.Repeat("x\n", 9), isError: true,
			result: []string{"matches more than 5 times (at lines 1, 2, 3, 4, 5 and more)"}},
		{name: "whitespace differs", file: goFile, edits: edits("func main() {\n    fmt.Println(\"hello\")", "x"), want: goFile, isError: true,
			result: []string{"edits[0].oldText was not found. It matches lines 5-6 if whitespace is ignored; the file has exactly:",
				`    5: "func main() {"`, `    6: "\tfmt.Println(\"hello\")"`}},
		{name: "first lines match, then the file differs", file: goFile,
			edits: edits("func helper(a int) int {\n\treturn a + 100\n}", "x"), want: goFile, isError: true,
			result: []string{"Its first line matches line 10, but then the file has line 11:", `    11: "\treturn a + 1"`,
				"where oldText has:\n    \"\\treturn a + 100\""}},
		{name: "first lines match, more than one", file: "a\nb\nc\nd\n", edits: edits("a\nb\nX\nd", "x"), want: "a\nb\nc\nd\n", isError: true,
			result: []string{"Its first 2 lines match lines 1-2, but then the file has line 3:\n    3: \"c\"\nwhere oldText has:\n    \"X\""}},
		{name: "similar lines", file: goFile, edits: edits("func helpr(b int) int {", "x"), want: goFile, isError: true,
			result: []string{`The lines of the file closest to its first line, "func helpr(b int) int {", are:`,
				`    10: "func helper(a int) int {" (`, "% similar)"}},
		{name: "nothing like it", file: goFile, edits: edits("SELECT * FROM users", "x"), want: goFile, isError: true,
			result: []string{`No line of the file resembles its first line, "SELECT * FROM users"; read the file again`}},
		{name: "one bad edit writes nothing", file: goFile, edits: edits("return a + 1", "return a + 2", "missing", "x"),
			want: goFile, isError: true, result: []string{"edits[1].oldText was not found"}},
		{name: "problems are all reported", file: goFile, edits: edits("fmt.Println(", "x", "missing", "y"),
			want: goFile, isError: true, result: []string{"edits[0].oldText matches 2 times", "edits[1].oldText was not found"}},
		{name: "overlapping edits", file: "abcdef\n", edits: edits("abcd", "x", "cdef", "y"), want: "abcdef\n", isError: true,
			result: []string{"edits[0] and edits[1] overlap (line 1); merge them into one edit"}},
		{name: "no change", file: "same\n", edits: edits("same", "same"), want: "same\n", isError: true,
			result: []string{"no change: every newText equals its oldText"}},
		{name: "empty oldText", file: "a\n", edits: edits("", "x"), want: "a\n", isError: true,
			result: []string{"edits[0].oldText is empty"}},
		{name: "only blank lines", file: "a\n", edits: edits("\n\n", "x"), want: "a\n", isError: true,
			result: []string{"It holds only blank lines"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := t.TempDir()
			path := writeFile(t, ws, "f.go", tt.file)
			if err := os.Chmod(path, 0o640); err != nil {
				t.Fatal(err)
			}
			r := execute(t, Edit(ws), map[string]any{"path": "f.go", "edits": tt.edits})
			got := text(r)
			for _, w := range tt.result {
				if !strings.Contains(got, w) {
					t.Errorf("result %q\nwant it to contain %q", got, w)
				}
			}
			if r.IsError != tt.isError {
				t.Errorf("IsError = %v, want %v (%s)", r.IsError, tt.isError, got)
			}
			data, err := os.ReadFile(path)
			if err != nil || string(data) != tt.want {
				t.Errorf("file = %q, want %q", data, tt.want)
			}
			if info, _ := os.Stat(path); info.Mode().Perm() != 0o640 {
				t.Errorf("mode = %v, want 0640", info.Mode().Perm())
			}
			if tt.isError {
				return
			}
			d := r.Details.(EditDetails)
			if d.Path != path || d.FirstChangedLine != tt.first || !strings.HasPrefix(d.Diff, "--- a/f.go\n+++ b/f.go\n") {
				t.Errorf("details %+v, want first line %d and a diff", d, tt.first)
			}
		})
	}
}

// TestEditErrorIsBounded: hundreds of failing edits, each with a near
// miss, still give a bounded message.
func TestEditErrorIsBounded(t *testing.T) {
	ws := t.TempDir()
	line := strings.Repeat("abcdefghij", 19) + "\n"
	writeFile(t, ws, "f.txt", strings.Repeat(line, 50))
	var pairs []string
	for i := range 500 {
		pairs = append(pairs, fmt.Sprintf("%s%d", line[:150], i), "x")
	}
	r := execute(t, Edit(ws), map[string]any{"path": "f.txt", "edits": edits(pairs...)})
	if got := text(r); !r.IsError || len(got) > maxBytes+100 || !strings.Contains(got, "edits[0].oldText was not found") {
		t.Errorf("result of %d bytes (error %v), starting %.100q", len(got), r.IsError, got)
	}
}

func TestEditRefuses(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, "bin.dat", "\x00\x01\x02")
	if err := os.Mkdir(filepath.Join(ws, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ path, want string }{
		{"missing.go", "file not found: " + filepath.Join(ws, "missing.go") + " (use write to create a file)"},
		{"bin.dat", "cannot edit " + filepath.Join(ws, "bin.dat") + ": " + filepath.Join(ws, "bin.dat") + " is a binary file: not a text file"},
		{"dir", "cannot edit " + filepath.Join(ws, "dir") + ": " + filepath.Join(ws, "dir") + " is a directory"},
	}
	for _, tt := range tests {
		r := execute(t, Edit(ws), map[string]any{"path": tt.path, "edits": edits("a", "b")})
		if got := text(r); got != tt.want || !r.IsError {
			t.Errorf("edit %s = %q (error %v), want %q", tt.path, got, r.IsError, tt.want)
		}
	}
}

func TestEditDescribe(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, "f.txt", "a\nb\n")
	tests := []struct {
		edits   []any
		summary string
		diff    string
	}{
		{edits("b", "c"), "edit f.txt (1 replacement)", "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"},
		{edits("z", "c"), "edit f.txt (1 replacement) — the edits do not apply as given; nothing will be written", ""},
		{edits("a", "1", "b", "2"), "edit f.txt (2 replacements)", "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n-a\n+1\n-b\n+2\n"},
	}
	for _, tt := range tests {
		a := Edit(ws).(Describer).Describe(map[string]any{"path": "f.txt", "edits": tt.edits})
		if a.Summary != tt.summary || a.Diff != tt.diff || !a.Mutating {
			t.Errorf("Describe(%v) = %+v, want %q and diff %q", tt.edits, a, tt.summary, tt.diff)
		}
	}
}
