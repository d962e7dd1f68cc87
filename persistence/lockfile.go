package persistence

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// lockFile is an open file that carries an advisory OS lock: an exclusive
// one marks a session's owner (sessions/<id>.lock), a shared or exclusive
// one on steer.db.migrate.lock orders the openers of a database. The lock
// belongs to the open file description, so two lockFiles conflict even in
// one process, closing any other descriptor of the file leaves it alone, and
// the kernel drops it when the process dies, however it dies. On Linux these
// are open-file-description locks (fcntl F_OFD_*), which can be tested
// without being taken; elsewhere flock(2), tested by trying (see
// lockfile_other.go).
type lockFile struct {
	f *os.File
}

// openLockFile opens path. forWrite creates it (0600) when missing and opens
// it for writing, which an exclusive lock needs; without it a missing file is
// an error that wraps fs.ErrNotExist and the file is never created, so a
// read-only store leaves the state directory alone.
func openLockFile(path string, forWrite bool) (*lockFile, error) {
	flag := os.O_RDONLY
	if forWrite {
		flag = os.O_RDWR | os.O_CREATE
	}
	f, err := os.OpenFile(path, flag, 0o600)
	if err != nil {
		return nil, err
	}
	return &lockFile{f: f}, nil
}

// close closes the file, which releases its lock.
func (l *lockFile) close() error {
	if l == nil {
		return nil
	}
	return l.f.Close()
}

// The wait for a lock that another opener holds: tries back off from
// lockPollMin to lockPollMax. The lock is held only while a database is
// checked or migrated, so the wait is short unless a process hangs there.
const (
	lockPollMin = time.Millisecond
	lockPollMax = 20 * time.Millisecond
)

// lockWithin takes the lock, waiting at most timeout for other holders to let
// go. Polling keeps the wait bounded and cancellable, which a blocking
// F_OFD_SETLKW or flock(2) is not.
func (l *lockFile) lockWithin(ctx context.Context, exclusive bool, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	delay := lockPollMin
	for {
		ok, err := l.tryLock(exclusive)
		if err != nil || ok {
			return err
		}
		if time.Now().After(deadline) {
			return errLockTimeout
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		delay = min(2*delay, lockPollMax)
	}
}

// errLockTimeout is lockWithin giving up.
var errLockTimeout = errors.New("timed out waiting for the lock")

// lockedByOther reports whether a process other than the caller's lockFile
// holds path's lock exclusively, without taking it. A missing file is not
// locked.
func lockedByOther(path string) (bool, error) {
	l, err := openLockFile(path, false)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer l.close()
	locked, err := l.lockedByOther()
	if err != nil {
		return false, fmt.Errorf("test the lock on %s: %w", path, err)
	}
	return locked, nil
}
