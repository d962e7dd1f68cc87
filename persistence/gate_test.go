package persistence

import (
	"context"
	"path/filepath"
	"testing"
)

func TestWriteGate(t *testing.T) {
	dir := t.TempDir()
	g := newWriteGate(dir)
	defer g.close()
	ctx := context.Background()

	// A holder keeps others out; a writer that gives up goes on without the
	// gate at once.
	leave := g.enter(ctx)
	other := newWriteGate(dir)
	defer other.close()
	gaveUp, cancel := context.WithCancel(ctx)
	cancel()
	other.enter(gaveUp)() // returns although the gate is held
	if ok, err := other.slot().gate.tryLock(true); ok || err != nil {
		t.Fatalf("the gate was free while held: %v, %v", ok, err)
	}

	// Let go, the gate passes on — also past the abandoned wait, which hands
	// the lock straight back when it comes.
	leave()
	other.enter(ctx)()
	g.enter(ctx)()

	// Without its files the gate is no gate, and writes go on.
	none := newWriteGate(filepath.Join(dir, "missing"))
	none.enter(ctx)()
}
