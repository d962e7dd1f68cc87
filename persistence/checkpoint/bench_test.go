package checkpoint_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/steer-tui/steer/persistence/checkpoint"
)

// BenchmarkCheckpoint10k is a checkpoint of a 10,000-file workspace with one
// changed file, after the first: the target is at most 50 ms.
//
// The workspace is one the user had before the session, as in use: the
// setup waits, off the clock, until its files are of a past second. Git
// cannot trust the times of files modified in the second its index was
// written in ("racily clean") and hashes them again at every listing, until
// the index is written in a later second: a workspace written in the same
// second as its first snapshot pays that, one the user had does not.
func BenchmarkCheckpoint10k(b *testing.B) {
	ws, state := b.TempDir(), b.TempDir()
	for i := 0; i < 10000; i++ {
		write(b, ws, fmt.Sprintf("d%02d/f%05d.txt", i%100, i), fmt.Sprintf("file %d\n", i))
	}
	untilNextSecond()
	ctx := context.Background()
	s, err := checkpoint.Open(state, ws, checkpoint.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.Take(ctx, "bench", "0", checkpoint.KindTurn); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		write(b, ws, "d00/f00000.txt", fmt.Sprintf("change %d\n", i))
		if _, err := s.Take(ctx, "bench", fmt.Sprint(i+1), checkpoint.KindTurn); err != nil {
			b.Fatal(err)
		}
	}
}

// untilNextSecond returns once the wall clock is in a later second than when
// it was called: git's file times count whole seconds.
func untilNextSecond() {
	now := time.Now()
	time.Sleep(now.Truncate(time.Second).Add(time.Second).Sub(now))
}
