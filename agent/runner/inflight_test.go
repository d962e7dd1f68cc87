package runner

import (
	"context"
	"testing"
	"time"
)

// TestInflightWaitsForWorkAddedWhileWaiting: work counted while a waiter
// waits is waited for too; an ended context stops the wait.
func TestInflightWaitsForWorkAddedWhileWaiting(t *testing.T) {
	var f inflight
	f.wait(context.Background()) // nothing counted: returns at once
	f.add()
	waited := make(chan struct{})
	go func() {
		f.wait(context.Background())
		close(waited)
	}()
	f.add() // while the waiter waits
	f.done()
	select {
	case <-waited:
		t.Fatal("the wait ended with work still counted")
	default:
	}
	f.done()
	select {
	case <-waited:
	case <-time.After(5 * time.Second):
		t.Fatal("the wait did not end once the work was done")
	}
	f.add()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f.wait(ctx) // returns although work is counted
}
