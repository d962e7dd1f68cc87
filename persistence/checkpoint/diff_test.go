package checkpoint_test

import (
	"context"
	"errors"
	"testing"

	"github.com/steer-tui/steer/persistence/checkpoint"
)

// TestDiffIsWhatATurnChanged: between a turn's checkpoint and the state
// steer left, Diff names each file with its action and lines; Last is
// ErrNoLast until a tool has settled.
func TestDiffIsWhatATurnChanged(t *testing.T) {
	ctx := context.Background()
	ws := t.TempDir()
	write(t, ws, "keep.txt", "one\ntwo\n")
	write(t, ws, "gone.txt", "x\n")
	s, err := checkpoint.Open(t.TempDir(), ws, checkpoint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Last(ctx, "s1"); !errors.Is(err, checkpoint.ErrNoLast) {
		t.Fatalf("Last before any tool: %v, want ErrNoLast", err)
	}
	c, err := s.Take(ctx, "s1", "1", checkpoint.KindTurn)
	if err != nil {
		t.Fatal(err)
	}
	write(t, ws, "keep.txt", "one\nTWO\nthree\n")
	write(t, ws, "new.txt", "n\n")
	shell(t, ws, "rm gone.txt")
	if err := s.Settle(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	last, err := s.Last(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Diff(ctx, "s1", c.ID, last)
	if err != nil {
		t.Fatal(err)
	}
	want := []checkpoint.Change{
		{Path: "gone.txt", Action: checkpoint.ActionDelete, Added: 0, Removed: 1},
		{Path: "keep.txt", Action: checkpoint.ActionRestore, Added: 2, Removed: 1},
		{Path: "new.txt", Action: checkpoint.ActionCreate, Added: 1, Removed: 0},
	}
	if len(got) != len(want) {
		t.Fatalf("Diff %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("change %d is %+v, want %+v", i, got[i], want[i])
		}
	}
}
