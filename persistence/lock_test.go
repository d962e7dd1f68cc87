package persistence

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gofrs/flock"
)

// TestOlderSteerAndThisOneExcludeEachOther plays a steer from before
// per-session ownership, which locks steer.lock exclusively and writes its
// pid into it.
func TestOlderSteerAndThisOneExcludeEachOther(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "steer.lock")
	older := flock.New(path)
	if ok, err := older.TryLock(); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if err := os.WriteFile(path, []byte("4242\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(dir, Options{})
	var le *LockedError
	if !errors.As(err, &le) || le.PID != 4242 {
		t.Fatalf("Open beside an older steer gave %v, want *LockedError naming pid 4242", err)
	}
	if want := fmt.Sprintf("state directory %s is in use by another steer process (pid 4242)", dir); err.Error() != want {
		t.Errorf("message\n got %q\nwant %q", err, want)
	}
	if err := older.Unlock(); err != nil {
		t.Fatal(err)
	}

	// Any number of current stores share the directory, and keep an older
	// steer out while they do.
	a, b := openStore(t, dir), openStore(t, dir)
	if ok, err := older.TryLock(); ok || err != nil {
		t.Fatalf("an older steer locked the directory beside current ones: %v, %v", ok, err)
	}
	if pid := string(fileBytes(t, path)); pid != "" {
		t.Errorf("steer.lock names %q; with several owners it should name none", pid)
	}
	for _, s := range []*Store{a, b} {
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if ok, err := older.TryLock(); !ok || err != nil {
		t.Fatalf("the directory stayed locked after the stores closed: %v, %v", ok, err)
	}
	older.Unlock()
}
