//go:build !linux

package persistence

import (
	"errors"
	"time"

	"golang.org/x/sys/unix"
)

// tryLock takes a flock(2) lock without waiting; false means another open
// file description holds a conflicting one. A claim whose try meets the
// brief shared lock of a concurrent lockedByOther test is retried by
// ClaimSession (see claimTries).
func (l *lockFile) tryLock(exclusive bool) (bool, error) {
	how := unix.LOCK_SH
	if exclusive {
		how = unix.LOCK_EX
	}
	err := unix.Flock(int(l.f.Fd()), how|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

// lockedByOther tests for an exclusive holder by taking a shared lock for an
// instant: flock(2) cannot be queried.
func (l *lockFile) lockedByOther() (bool, error) {
	ok, err := l.tryLock(false)
	if err != nil || !ok {
		return !ok && err == nil, err
	}
	return false, unix.Flock(int(l.f.Fd()), unix.LOCK_UN)
}

// A claim tries a session's lock claimTries times, claimRetryDelay apart,
// before it reports the owner, so that the instant a listing tests the lock
// does not turn the claim away.
const (
	claimTries      = 5
	claimRetryDelay = time.Millisecond
)

// lockWait takes an exclusive lock, blocking until the kernel grants it.
func (l *lockFile) lockWait() error {
	for {
		err := unix.Flock(int(l.f.Fd()), unix.LOCK_EX)
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

// unlock drops the lock and keeps the file open.
func (l *lockFile) unlock() error {
	return unix.Flock(int(l.f.Fd()), unix.LOCK_UN)
}
