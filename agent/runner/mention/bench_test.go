package mention

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// bigTree makes a workspace of 100,000 files: 100 packages of 10
// directories of 100 files.
func bigTree(b *testing.B) string {
	b.Helper()
	root := b.TempDir()
	for p := range 100 {
		for d := range 10 {
			dir := filepath.Join(root, fmt.Sprintf("pkg%02d", p), fmt.Sprintf("sub%d", d))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
			for f := range 100 {
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("file_%03d.go", f)), nil, 0o644); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	return root
}

// BenchmarkMentionQuery100k measures the finder on 100,000 files:
// first-results is from the index's start to the first query that finds
// something (what "@" shows while the walk goes on); keystroke is one
// query over the whole index that no earlier one narrows (the worst key);
// typing is the mean of the keys of a path typed letter by letter.
func BenchmarkMentionQuery100k(b *testing.B) {
	root := bigTree(b)
	b.Run("first-results", func(b *testing.B) {
		for range b.N {
			ix := New(root)
			for len(ix.Query("", 6).Matches) == 0 {
				runtime.Gosched()
			}
			b.StopTimer()
			ix.Close()
			b.StartTimer()
		}
	})
	ix := New(root)
	defer ix.Close()
	if err := ix.Wait(context.Background()); err != nil {
		b.Fatal(err)
	}
	if n := ix.Query("", 1).Searched; n < 100_000 {
		b.Fatalf("the index holds %d entries", n)
	}
	b.Run("keystroke", func(b *testing.B) {
		keys := []string{"f", "s", "g", "u"}
		for i := range b.N {
			if len(ix.Query(keys[i%len(keys)], 6).Matches) == 0 {
				b.Fatal("no match")
			}
		}
	})
	b.Run("typing", func(b *testing.B) {
		typed := "pkg42sub3file_07"
		for range b.N {
			for i := 1; i <= len(typed); i++ {
				ix.Query(typed[:i], 6)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(typed)), "ns/key")
	})
}
