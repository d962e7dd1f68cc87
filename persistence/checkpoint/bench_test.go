package checkpoint_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/steer-tui/steer/persistence/checkpoint"
)

// BenchmarkCheckpoint10k is a checkpoint of a 10,000-file workspace with one
// changed file, after the first: the target is at most 50 ms.
func BenchmarkCheckpoint10k(b *testing.B) {
	ws, state := b.TempDir(), b.TempDir()
	for i := 0; i < 10000; i++ {
		write(b, ws, fmt.Sprintf("d%02d/f%05d.txt", i%100, i), fmt.Sprintf("file %d\n", i))
	}
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
