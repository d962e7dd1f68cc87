package persistence

import (
	"errors"
	"io"

	"golang.org/x/sys/unix"
)

// tryLock takes an open-file-description lock on the whole file without
// waiting; false means another description holds a conflicting one.
func (l *lockFile) tryLock(exclusive bool) (bool, error) {
	lk := wholeFile(unix.F_RDLCK)
	if exclusive {
		lk.Type = unix.F_WRLCK
	}
	err := unix.FcntlFlock(l.f.Fd(), unix.F_OFD_SETLK, &lk)
	if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EACCES) {
		return false, nil
	}
	return err == nil, err
}

// lockedByOther asks the kernel (F_OFD_GETLK) whether another description
// holds a lock that would block an exclusive one. It takes nothing, so a
// listing can never make a concurrent claim fail.
func (l *lockFile) lockedByOther() (bool, error) {
	lk := wholeFile(unix.F_WRLCK)
	if err := unix.FcntlFlock(l.f.Fd(), unix.F_OFD_GETLK, &lk); err != nil {
		return false, err
	}
	return lk.Type != unix.F_UNLCK, nil
}

// wholeFile is a lock request of type typ covering the whole file (Len 0
// reaches to the end, however the file grows). OFD requests need Pid 0.
func wholeFile(typ int16) unix.Flock_t {
	return unix.Flock_t{Type: typ, Whence: io.SeekStart}
}

// A claim tries a session's lock once before it reports the owner: here
// nothing but an owner ever holds it (lockedByOther takes nothing).
const (
	claimTries      = 1
	claimRetryDelay = 0
)

// lockWait takes an exclusive lock, blocking until the kernel grants it: the
// waiter is woken the moment the holder lets go, with no polling delay.
func (l *lockFile) lockWait() error {
	lk := wholeFile(unix.F_WRLCK)
	for {
		err := unix.FcntlFlock(l.f.Fd(), unix.F_OFD_SETLKW, &lk)
		if !errors.Is(err, unix.EINTR) { // the Go runtime's own signals interrupt the wait
			return err
		}
	}
}

// unlock drops the lock and keeps the file open.
func (l *lockFile) unlock() error {
	lk := wholeFile(unix.F_UNLCK)
	return unix.FcntlFlock(l.f.Fd(), unix.F_OFD_SETLK, &lk)
}
