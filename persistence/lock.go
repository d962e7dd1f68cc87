package persistence

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gofrs/flock"
)

// lockFileName is the lock file inside the state directory.
const lockFileName = "steer.lock"

// dirLock is an exclusive OS lock (flock(2) on Unix) on a state directory's
// lock file. The kernel drops it when the process dies, so a crash never
// leaves a directory locked.
type dirLock struct {
	fl *flock.Flock
}

// lockDir takes the lock on dir without waiting, and writes this process's pid
// into the lock file so that a refused opener can name the owner.
func lockDir(dir string) (*dirLock, error) {
	path := filepath.Join(dir, lockFileName)
	fl := flock.New(path, flock.SetPermissions(0o600))
	ok, err := fl.TryLock()
	if err != nil {
		return nil, fmt.Errorf("lock state directory %s: %w", dir, err)
	}
	if !ok {
		return nil, &LockedError{Dir: dir, PID: readLockPID(path)}
	}
	// The lock belongs to the open file description held by fl, so writing
	// through another descriptor does not affect it.
	if err := os.WriteFile(path, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o600); err != nil {
		_ = fl.Unlock()
		return nil, fmt.Errorf("write pid into %s: %w", path, err)
	}
	return &dirLock{fl: fl}, nil
}

// readLockPID returns the pid in the lock file, or 0 when there is none yet.
func readLockPID(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// release drops the lock. The pid stays in the file; it is only read while the
// lock is held by someone.
func (l *dirLock) release() error {
	if l == nil {
		return nil
	}
	return l.fl.Unlock()
}
