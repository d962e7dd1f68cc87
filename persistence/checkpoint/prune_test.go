package checkpoint_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/steer-tui/steer/persistence/checkpoint"
)

func TestPrune(t *testing.T) {
	tests := []struct {
		name     string
		maxAge   time.Duration
		maxCount int
		left     []string // turns left, newest first
	}{
		{"by count", 0, 2, []string{"4", "3"}},
		{"by age", 150 * time.Minute, 0, []string{"4", "3"}},
		{"defaults keep all", 0, 0, []string{"4", "3", "2", "1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, state := t.TempDir(), t.TempDir()
			write(t, ws, "a.txt", "a\n")
			clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			s, err := checkpoint.Open(state, ws, checkpoint.Options{Now: func() time.Time { return clock }})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			for i := 1; i <= 4; i++ {
				if _, err := s.Take(ctx, "s1", fmt.Sprint(i), checkpoint.KindTurn); err != nil {
					t.Fatal(err)
				}
				clock = clock.Add(time.Hour)
			}
			if _, err := s.Prune(ctx, "s1", tt.maxAge, tt.maxCount); err != nil {
				t.Fatal(err)
			}
			list, err := s.List(ctx, "s1")
			if err != nil {
				t.Fatal(err)
			}
			var turns []string
			for _, c := range list {
				turns = append(turns, c.Turn)
			}
			if fmt.Sprint(turns) != fmt.Sprint(tt.left) {
				t.Fatalf("left %v, want %v", turns, tt.left)
			}
		})
	}
}
