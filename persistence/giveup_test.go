package persistence

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/steer-tui/steer/persistence/persisttest"
)

// giveUpBound is how long a write whose context has ended may still take:
// far below the ~25 s a write spends on a locked database before it reports
// ErrBusy, so that a test cannot pass by waiting the lock out.
const giveUpBound = 3 * time.Second

// within runs f, failing the test when it has not returned after
// giveUpBound; it returns f's error.
func within(t *testing.T, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(giveUpBound):
		t.Fatalf("%s did not give up within %v of its context ending", what, giveUpBound)
		return nil
	}
}

// ended is a context that has ended.
func ended() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

// TestClosingGivesUpOnALockedDatabase: releasing a claim, closing a lane
// publisher and closing the store write to the database; while another
// connection keeps it locked each gives up as soon as its context ends,
// says so, and still drops its OS lock, so that the session and the
// listing pass on at once.
func TestClosingGivesUpOnALockedDatabase(t *testing.T) {
	tests := []struct {
		name  string
		close func(f fixture, pub *LanePublisher, claim *Claim) error
		// lock is the OS lock the closing must drop.
		lock func(f fixture, pub *LanePublisher) string
	}{
		{"Claim.Release", func(_ fixture, _ *LanePublisher, c *Claim) error { return c.Release(ended()) },
			func(f fixture, _ *LanePublisher) string { return f.store.lockPath(testSession) }},
		{"LanePublisher.Close", func(_ fixture, p *LanePublisher, _ *Claim) error { return p.Close(ended()) },
			func(f fixture, p *LanePublisher) string { return f.store.laneLockPath(p.id) }},
		{"Store.CloseContext", func(f fixture, _ *LanePublisher, _ *Claim) error { return f.store.CloseContext(ended()) },
			func(f fixture, _ *LanePublisher) string { return f.store.lockPath(testSession) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			claim, err := f.store.ClaimSession(f.ctx, testSession)
			if err != nil {
				t.Fatal(err)
			}
			pub, err := f.store.LanePublisher()
			if err != nil {
				t.Fatal(err)
			}
			if err := pub.Publish(f.ctx, busySnapshot(testSession, at(1))); err != nil {
				t.Fatal(err)
			}
			lock := tt.lock(f, pub)
			persisttest.HoldWriteLock(t, f.store.Path())

			err = within(t, tt.name, func() error { return tt.close(f, pub, claim) })
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%s = %v, want the context's error", tt.name, err)
			}
			if held, err := lockedByOther(lock); err != nil || held {
				t.Errorf("the OS lock %s is still held (%v)", filepath.Base(lock), err)
			}
			_ = pub.Close(ended())
		})
	}
}

// TestOpenGivesUpWithItsContext: an open that waits for another opener's
// migration lock ends with its context's error, not after the lock's
// minute.
func TestOpenGivesUpWithItsContext(t *testing.T) {
	dir := t.TempDir()
	openStore(t, dir).Close()
	other, err := openLockFile(filepath.Join(dir, migrateLockName), true)
	if err != nil {
		t.Fatal(err)
	}
	defer other.close()
	if ok, err := other.tryLock(true); !ok || err != nil {
		t.Fatalf("taking the migration lock: %v, %v", ok, err)
	}
	for _, ro := range []bool{false, true} {
		err := within(t, "OpenContext", func() error {
			s, err := OpenContext(ended(), dir, Options{ReadOnly: ro})
			if err == nil {
				s.Close()
			}
			return err
		})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("OpenContext (read-only %v) = %v, want the context's error", ro, err)
		}
	}
}
