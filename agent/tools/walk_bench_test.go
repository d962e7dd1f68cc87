package tools

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkWalkManyIgnores walks a tree of 300 packages, each with its own
// eight-line .gitignore and 32 files, under a root .gitignore: a file must
// be matched against its own directory's and its ancestors' patterns only,
// so the cost per entry stays flat however many .gitignore files the walk
// has passed.
func BenchmarkWalkManyIgnores(b *testing.B) {
	const packages, files = 300, 32
	root := b.TempDir()
	write := func(path, content string) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	write(filepath.Join(root, ".gitignore"), "*.log\nbuild/\n")
	for p := range packages {
		dir := filepath.Join(root, "pkg", fmt.Sprintf("p%03d", p))
		write(filepath.Join(dir, ".gitignore"), "*.tmp\n*.out\ncache/\n/gen\n!keep.tmp\n*.o\n*.a\ndist/\n")
		for f := range files {
			write(filepath.Join(dir, fmt.Sprintf("f%02d.go", f)), "package p\n")
		}
	}
	const want = 2 + packages*(2+files) // the root's .gitignore and pkg/, then each package
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		err := walk(context.Background(), root, root, func(string, fs.DirEntry) error { n++; return nil })
		if err != nil || n != want {
			b.Fatalf("walked %d entries (%v), want %d", n, err, want)
		}
	}
}
