package persistence

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Claim is a store's ownership of one session. While it is held no other
// store, in this process or any other, can claim the session, so nobody else
// can begin a run on it or queue inputs for it. It is held through an OS lock
// on sessions/<id>.lock, which the kernel releases when the process dies, so
// a session whose owner was killed can be claimed again at once; the new
// owner then repairs what the dead one left (RepairSession).
type Claim struct {
	store     *Store
	sessionID string
	since     time.Time
	lock      *lockFile
	released  bool // guarded by store.claimsMu
}

// SessionID is the claimed session.
func (c *Claim) SessionID() string { return c.sessionID }

// Release gives the session up: it clears the session's record of its owner
// and its active writer (a run still going can no longer write it) and drops
// the lock. The lock is dropped even when the database write fails (a locked
// database until ctx ends), whose error is returned: the record left behind
// names a process that no longer holds the lock, which no listing believes
// and the next claim replaces. Releasing again does nothing.
func (c *Claim) Release(ctx context.Context) error {
	s := c.store
	s.claimsMu.Lock()
	defer s.claimsMu.Unlock()
	return s.releaseLocked(ctx, c)
}

// owner describes the claim as ListSessions would.
func (c *Claim) owner() Owner {
	return Owner{PID: os.Getpid(), Host: thisHost(), Since: c.since}
}

// Owner is the live process that owns a session, as it recorded itself; the
// zero Owner stands for none.
type Owner struct {
	PID  int
	Host string
	// Since is when it claimed the session.
	Since time.Time
}

// Live reports whether o names an owner.
func (o Owner) Live() bool { return o.PID != 0 }

// thisHost is this machine's name as owners record it.
var thisHost = sync.OnceValue(func() string {
	h, _ := os.Hostname()
	return h
})

// errClosed is returned by a claim on a closed store.
var errClosed = errors.New("the store is closed")

// ClaimSession makes this store the session's owner, or returns a
// *OwnedError naming the live process (pid and host) that owns it — another
// store of this process included. A session whose owner died, however it
// died, is claimed at once. Claiming a session this store already holds
// returns the same *Claim. The session must exist (else ErrNotFound); a
// read-only store returns ErrReadOnly. The claim lasts until Release or
// Close.
func (s *Store) ClaimSession(ctx context.Context, id string) (*Claim, error) {
	if s.writer == nil {
		return nil, ErrReadOnly
	}
	s.claimsMu.Lock()
	defer s.claimsMu.Unlock()
	if c, err := s.heldLocked(id); c != nil || err != nil {
		return c, err
	}
	c, err := s.claimLocked(ctx, id, func(tx *sql.Tx) error {
		var one int
		err := tx.QueryRowContext(ctx, `SELECT 1 FROM sessions WHERE id = ?`, id).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("session %s: %w", id, ErrNotFound)
		}
		return err
	})
	if err != nil {
		var oe *OwnedError
		if errors.As(err, &oe) {
			return nil, err
		}
		return nil, fmt.Errorf("claim session %s: %w", id, err)
	}
	return c, nil
}

// ClaimLatestSession claims the workspace's most recently updated session that
// no live process owns (this store included) — what `steer --continue`
// resumes. A session claimed by another process between the listing and the
// claim is passed over for the next one. It returns an error wrapping
// ErrNotFound when there is none.
func (s *Store) ClaimLatestSession(ctx context.Context, workspace string) (Session, *Claim, error) {
	list, err := s.ListSessions(ctx, ListOptions{Workspace: workspace, Unowned: true})
	if err != nil {
		return Session{}, nil, err
	}
	for _, ss := range list {
		c, err := s.ClaimSession(ctx, ss.ID)
		var oe *OwnedError
		switch {
		case errors.As(err, &oe), errors.Is(err, ErrNotFound):
			continue
		case err != nil:
			return Session{}, nil, err
		}
		ss.Owner = c.owner()
		return ss, c, nil
	}
	return Session{}, nil, fmt.Errorf("latest unowned session of workspace %s: %w", workspace, ErrNotFound)
}

// heldLocked returns this store's claim on id, if any; the caller holds
// claimsMu.
func (s *Store) heldLocked(id string) (*Claim, error) {
	if s.claims == nil {
		return nil, errClosed
	}
	if id == "" {
		return nil, errors.New("empty session id")
	}
	return s.claims[id], nil
}

// claimed returns this store's claim on id, or nil.
func (s *Store) claimed(id string) *Claim {
	s.claimsMu.Lock()
	defer s.claimsMu.Unlock()
	return s.claims[id]
}

// ensureClaim claims id unless this store holds it already: the write paths
// that define a session's content (BeginRun, AddPendingInput) go through it,
// so that two processes can never both write one session.
func (s *Store) ensureClaim(ctx context.Context, id string) error {
	if s.writer == nil {
		return ErrReadOnly
	}
	if s.claimed(id) != nil {
		return nil
	}
	_, err := s.ClaimSession(ctx, id)
	return err
}

// claimLocked takes id's lock and records this process as the owner in a
// transaction that runs before first (which checks or creates the session).
// The caller holds claimsMu and has checked that this store holds no claim
// on id.
func (s *Store) claimLocked(ctx context.Context, id string, before func(*sql.Tx) error) (*Claim, error) {
	lf, err := openLockFile(s.lockPath(id), true)
	if err != nil {
		return nil, err
	}
	ok, err := tryClaim(lf)
	if err != nil {
		lf.close()
		return nil, fmt.Errorf("lock %s: %w", lf.f.Name(), err)
	}
	if !ok {
		lf.close()
		return nil, s.ownedError(ctx, id)
	}
	since := time.UnixMilli(s.now().UnixMilli()).UTC()
	err = s.write(ctx, func(tx *sql.Tx) error {
		if err := before(tx); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO session_owners
			(session_id, pid, host, claimed_at) VALUES (?, ?, ?, ?)`, id, os.Getpid(), thisHost(), ms(since))
		return err
	})
	if err != nil {
		lf.close()
		return nil, err
	}
	c := &Claim{store: s, sessionID: id, since: since, lock: lf}
	s.claims[id] = c
	return c, nil
}

// tryClaim tries the exclusive lock claimTries times (see the platform files).
func tryClaim(lf *lockFile) (bool, error) {
	for try := 1; ; try++ {
		ok, err := lf.tryLock(true)
		if ok || err != nil || try >= claimTries {
			return ok, err
		}
		time.Sleep(claimRetryDelay)
	}
}

// ownedError names the owner that holds id's lock, as it recorded itself.
func (s *Store) ownedError(ctx context.Context, id string) error {
	e := &OwnedError{SessionID: id}
	var pid sql.NullInt64
	var host sql.NullString
	err := s.reader.QueryRowContext(ctx, `SELECT pid, host FROM session_owners WHERE session_id = ?`, id).Scan(&pid, &host)
	if err == nil {
		e.PID, e.Host = int(pid.Int64), host.String
	}
	return e
}

// releaseLocked releases c within ctx; the caller holds claimsMu.
func (s *Store) releaseLocked(ctx context.Context, c *Claim) error {
	if c.released {
		return nil
	}
	c.released = true
	if s.claims[c.sessionID] == c {
		delete(s.claims, c.sessionID)
	}
	// The record goes while the lock is still held, so it cannot remove the
	// record of the next owner.
	err := s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM session_owners WHERE session_id = ?`, c.sessionID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE sessions SET active_writer_run_id = NULL WHERE id = ?`, c.sessionID)
		return err
	})
	if err != nil {
		err = fmt.Errorf("release session %s: %w", c.sessionID, err)
	}
	return errors.Join(err, c.lock.close())
}

// releaseAll releases every claim within ctx and refuses new ones: the
// store is closing.
func (s *Store) releaseAll(ctx context.Context) error {
	s.claimsMu.Lock()
	defer s.claimsMu.Unlock()
	var errs []error
	for _, c := range s.claims {
		errs = append(errs, s.releaseLocked(ctx, c))
	}
	s.claims = nil
	return errors.Join(errs...)
}

// ownerRecord is a session's row in session_owners, when it has one.
type ownerRecord struct {
	pid   sql.NullInt64
	host  sql.NullString
	since sql.NullInt64
}

// liveOwner says which live process owns session id; the zero Owner when
// none does. A recorded owner counts only while its lock is held: the record
// of a killed owner stays behind until the next claim replaces it. A session
// without a record is not tested — it is owned by nobody, or by a process
// that is claiming it at this instant and counts from the next listing on.
func (s *Store) liveOwner(id string, rec ownerRecord) (Owner, error) {
	if c := s.claimed(id); c != nil {
		return c.owner(), nil
	}
	if !rec.pid.Valid || rec.pid.Int64 == 0 {
		return Owner{}, nil
	}
	locked, err := lockedByOther(s.lockPath(id))
	if err != nil || !locked {
		return Owner{}, err
	}
	return Owner{PID: int(rec.pid.Int64), Host: rec.host.String, Since: fromMS(rec.since.Int64)}, nil
}

// maxPlainLockName bounds the session ids used as lock file names as they
// are.
const maxPlainLockName = 128

// lockPath is the lock file of session id. An id that is not a plain file
// name (or is long) is hashed, so that no id can name a path outside
// sessions/; the "~" that starts a hashed name is not in any plain one.
func (s *Store) lockPath(id string) string {
	return filepath.Join(s.sessionsDir(), lockName(id))
}

func lockName(id string) string {
	plain := id != "" && len(id) <= maxPlainLockName && id[0] != '.'
	for i := 0; plain && i < len(id); i++ {
		c := id[i]
		plain = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.'
	}
	if plain {
		return id + ".lock"
	}
	sum := sha256.Sum256([]byte(id))
	return "~" + hex.EncodeToString(sum[:16]) + ".lock"
}
