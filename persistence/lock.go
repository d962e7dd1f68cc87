package persistence

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gofrs/flock"
)

// legacyLockFileName is the directory lock of the steer versions that let one
// process own the whole state directory.
const legacyLockFileName = "steer.lock"

// legacyGuard keeps this steer and an older, directory-locking one apart.
// Every read-write store holds a shared flock(2) on steer.lock, which any
// number of current processes share; an older steer takes the same lock
// exclusively, so while one runs a current one is refused (*LockedError) and
// while current ones run the older one is refused. Once an older steer has
// been refused by the migrated schema (a *NewerSchemaError), the guard has
// nothing left to do, but it is one system call at Open.
type legacyGuard struct {
	fl *flock.Flock
}

// guardDir takes the shared lock without waiting.
func guardDir(dir string) (*legacyGuard, error) {
	path := filepath.Join(dir, legacyLockFileName)
	fl := flock.New(path, flock.SetPermissions(0o600))
	ok, err := fl.TryRLock()
	if err != nil {
		return nil, fmt.Errorf("lock state directory %s: %w", dir, err)
	}
	if !ok {
		return nil, &LockedError{Dir: dir, PID: readLockPID(path)}
	}
	// An older steer refused by us reads its owner's pid from this file;
	// there is no single owner now, so leave none for it to name.
	_ = os.Truncate(path, 0)
	return &legacyGuard{fl: fl}, nil
}

// readLockPID returns the pid an older steer wrote into the lock file, or 0.
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

// release drops the shared lock.
func (g *legacyGuard) release() error {
	if g == nil {
		return nil
	}
	return g.fl.Unlock()
}
