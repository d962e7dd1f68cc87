package mention

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// tree makes files (a path ending in "/" is a directory) under a new root.
func tree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, body := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if IsDir(p) {
			if err := os.MkdirAll(abs, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func walked(t *testing.T, root string) *Index {
	t.Helper()
	ix := New(root)
	t.Cleanup(ix.Close)
	if err := ix.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	return ix
}

func paths(ms []Match) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Path)
	}
	return out
}

func TestQuery(t *testing.T) {
	root := tree(t, map[string]string{
		".gitignore":          "build/\n*.log\n",
		"README.md":           "# hi",
		"agent/read.go":       "package agent",
		"agent/tools/walk.go": "package tools",
		"agent/loop.go":       "package agent",
		"build/out.bin":       "x",
		"debug.log":           "x",
		"docs/":               "",
	})
	ix := walked(t, root)
	cases := []struct {
		q    string
		want []string
	}{
		{"", []string{".gitignore", "README.md", "agent/", "docs/"}},
		{"agent/", []string{"agent/loop.go", "agent/read.go", "agent/tools/"}},
		{"READ", []string{"README.md", "agent/read.go"}},
		{"agent/wa", []string{"agent/tools/walk.go"}},
		{"walk", []string{"agent/tools/walk.go"}},
		{"out.bin", nil}, // ignored by .gitignore
		{"debug", nil},
		{"nope/x", nil},
	}
	for _, tc := range cases {
		res := ix.Query(tc.q, 10)
		if got := paths(res.Matches); !slices.Equal(got, tc.want) {
			t.Errorf("Query(%q) = %q, want %q", tc.q, got, tc.want)
		}
		if !res.Complete {
			t.Errorf("Query(%q) after the walk is not complete", tc.q)
		}
	}
}

// TestQueryNarrowsAsTyped: a query that extends the previous one finds
// exactly what a fresh index finds, the entries found since included.
func TestQueryNarrowsAsTyped(t *testing.T) {
	root := tree(t, map[string]string{"main.go": "", "mention.go": "", "model.go": "", "x/main_test.go": ""})
	ix := walked(t, root)
	for _, q := range []string{"m", "ma", "mai", "main", "mo", "m", "main"} {
		fresh := walked(t, root)
		want := paths(fresh.Query(q, 10).Matches)
		if got := paths(ix.Query(q, 10).Matches); !slices.Equal(got, want) {
			t.Errorf("Query(%q) after others = %q, fresh %q", q, got, want)
		}
	}
}

func TestQueryLimitAndHighlight(t *testing.T) {
	files := map[string]string{}
	for _, n := range []string{"a1", "a2", "a3", "a4"} {
		files[n+".txt"] = ""
	}
	ix := walked(t, tree(t, files))
	res := ix.Query("a3", 2)
	if len(res.Matches) != 1 || res.Matches[0].Path != "a3.txt" || !slices.Equal(res.Matches[0].Matched, []int{0, 1}) {
		t.Errorf("Query(a3) = %+v", res.Matches)
	}
	if got := len(ix.Query("txt", 2).Matches); got != 2 {
		t.Errorf("Query(txt, 2) returned %d matches", got)
	}
}

func TestCloseBeforeStart(t *testing.T) {
	ix := New(t.TempDir())
	ix.Close() // must not hang
	if res := ix.Query("", 5); len(res.Matches) != 0 {
		t.Errorf("a closed index found %v", res.Matches)
	}
}

// indexOf is an index over entries as a walk would have found them.
func indexOf(entries []string) *Index {
	ix := New("")
	ix.start.Do(func() { close(ix.walked) })
	ix.entries, ix.done = entries, true
	return ix
}

// TestQueryManyMatches: when more entries match than are scored, the best
// is still found, wherever the walk met it.
func TestQueryManyMatches(t *testing.T) {
	var entries []string
	for i := range maxScored + 2000 {
		entries = append(entries, fmt.Sprintf("src/component_%05d/module_helper.go", i))
	}
	entries = append(entries, "zz/main.go", "Makefile")
	ix := indexOf(entries)
	for q, want := range map[string]string{"m": "Makefile", "mgo": "zz/main.go", "make": "Makefile", "comp_0": "src/component_00000/module_helper.go"} {
		if got := paths(ix.Query(q, 3).Matches); len(got) == 0 || got[0] != want {
			t.Errorf("Query(%q) = %q, want %q first", q, got, want)
		}
	}
}
