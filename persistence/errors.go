package persistence

import (
	"errors"
	"fmt"
)

// ErrNotFound is returned (wrapped) when a session or run does not exist.
var ErrNotFound = errors.New("not found")

// ErrStaleWriter is returned (wrapped) by a transcript write whose run is not
// the session's active writer: a later run superseded it, or it has ended. The
// write commits nothing.
var ErrStaleWriter = errors.New("stale writer: the run is no longer the session's active writer")

// ErrReadOnly is returned by every write on a store opened with
// Options.ReadOnly.
var ErrReadOnly = errors.New("the store is open read-only")

// ErrBusy is returned (wrapped, with SQLite's own error) by a write that could
// not get the database's write lock within its bounded retries: another
// process held it far longer than any steer write transaction takes. Nothing
// was written; the caller reports it as a failed save.
var ErrBusy = errors.New("the database stayed locked by another process")

// OwnedError reports that a live process owns the session, so this one may
// not write it. The owner is named as it recorded itself; PID is 0 and Host
// empty when it has not recorded itself yet (it is claiming at this instant).
type OwnedError struct {
	SessionID string
	PID       int
	Host      string
}

// Error renders the refusal as one line naming the session and its owner.
func (e *OwnedError) Error() string {
	switch {
	case e.PID > 0 && e.Host != "":
		return fmt.Sprintf("session %s is open in another steer process (pid %d on %s)", e.SessionID, e.PID, e.Host)
	case e.PID > 0:
		return fmt.Sprintf("session %s is open in another steer process (pid %d)", e.SessionID, e.PID)
	}
	return fmt.Sprintf("session %s is open in another steer process", e.SessionID)
}

// LockedError reports that a steer from before per-session ownership holds
// the state directory: such a binary locks the whole directory (steer.lock)
// and knows nothing of session claims, so the two must not share it. Steer
// processes of this version share the directory and never return it to each
// other.
type LockedError struct {
	// Dir is the state directory.
	Dir string
	// PID is the owner's process id as it wrote it into the lock file, 0 when
	// it could not be read.
	PID int
}

// Error renders the refusal as one line that names the directory and the owner.
func (e *LockedError) Error() string {
	if e.PID > 0 {
		return fmt.Sprintf("state directory %s is in use by another steer process (pid %d)", e.Dir, e.PID)
	}
	return fmt.Sprintf("state directory %s is in use by another steer process", e.Dir)
}

// NewerSchemaError reports a database written by a newer steer. The file is
// left untouched.
type NewerSchemaError struct {
	// Path is the database file.
	Path string
	// Version is the database's schema version.
	Version int
	// Supported is the newest schema version this binary knows.
	Supported int
}

// Error renders the refusal as one line naming the file and both versions.
func (e *NewerSchemaError) Error() string {
	return fmt.Sprintf("database %s has schema version %d, but this steer supports only up to version %d; upgrade steer or use another state directory",
		e.Path, e.Version, e.Supported)
}

// CorruptError reports a database file that is not a usable SQLite database
// (or not a steer one). The file is left untouched.
type CorruptError struct {
	// Path is the database file.
	Path string
	// Err is what gave it away.
	Err error
}

// Error renders the refusal as one line naming the file.
func (e *CorruptError) Error() string {
	return fmt.Sprintf("database %s is corrupt or not a steer database (%v); it was left untouched — move it aside to start afresh",
		e.Path, e.Err)
}

// Unwrap returns the cause.
func (e *CorruptError) Unwrap() error { return e.Err }
