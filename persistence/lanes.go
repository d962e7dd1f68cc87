package persistence

import (
	"cmp"
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/steer-tui/steer/lanes"
)

// lanesDirName holds the lock file of each live lane publisher.
const lanesDirName = "lanes"

// ProcessLanes is the lane snapshot a live steer process published last,
// with the process it came from.
type ProcessLanes struct {
	// ProcessID names the publisher; it is random, so a reused pid is a new
	// process.
	ProcessID string    `json:"processId"`
	PID       int       `json:"pid"`
	Host      string    `json:"host"`
	Started   time.Time `json:"started"`
	// The snapshot: when it was taken and its lanes.
	lanes.Snapshot
}

// LanePublisher keeps this process's lane snapshot in the shared database,
// so that other steer processes can list it (Store.LaneSnapshots). It holds
// an OS lock while it is open, which the kernel drops when the process
// dies: a listing shows the snapshots of live publishers only. Close it
// before its store. Its methods are safe for concurrent use.
type LanePublisher struct {
	store   *Store
	id      string
	started time.Time

	mu   sync.Mutex
	lock *lockFile // nil once closed
}

// LanePublisher opens this process's place in the lane listing; it is listed
// from its first Publish until Close. Its lock (lanes/<id>.lock, with a
// random id) is taken before any row is written, so rows whose lock nobody
// holds can only be a dead process's. A read-only store returns
// ErrReadOnly.
func (s *Store) LanePublisher() (*LanePublisher, error) {
	if s.writer == nil {
		return nil, ErrReadOnly
	}
	if err := os.MkdirAll(s.lanesDir(), 0o700); err != nil {
		return nil, fmt.Errorf("lane publisher: %w", err)
	}
	id := strings.ToLower(rand.Text())
	lf, err := openLockFile(s.laneLockPath(id), true)
	if err != nil {
		return nil, fmt.Errorf("lane publisher: %w", err)
	}
	ok, err := lf.tryLock(true)
	if err == nil && !ok {
		err = errors.New("held by another publisher")
	}
	if err != nil {
		lf.close()
		return nil, fmt.Errorf("lane publisher: lock %s: %w", lf.f.Name(), err)
	}
	return &LanePublisher{store: s, id: id, started: fromMS(ms(s.now())), lock: lf}, nil
}

// Publish replaces this process's snapshot with snap, in one short write
// transaction. Publish after Close returns an error and stores nothing.
func (p *LanePublisher) Publish(ctx context.Context, snap lanes.Snapshot) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.lock == nil {
		return errors.New("publish lanes: the publisher is closed")
	}
	err := p.store.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO lane_processes (process_id, pid, host, started_at, published_at)
			VALUES (?, ?, ?, ?, ?) ON CONFLICT (process_id) DO UPDATE SET published_at = excluded.published_at`,
			p.id, os.Getpid(), thisHost(), ms(p.started), ms(snap.Taken)); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM lane_states WHERE process_id = ?`, p.id); err != nil {
			return err
		}
		return insertLanes(ctx, tx, p.id, snap.Lanes)
	})
	if err != nil {
		return fmt.Errorf("publish lanes: %w", err)
	}
	return nil
}

// Close takes this process's snapshot out of the listing and drops the
// lock; the lock goes even when the delete fails (a locked database until
// ctx ends), and a listing then removes the rows itself. Closing again does
// nothing.
func (p *LanePublisher) Close(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.lock == nil {
		return nil
	}
	err := p.store.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM lane_processes WHERE process_id = ?`, p.id)
		return err
	})
	if err != nil {
		err = fmt.Errorf("close lane publisher: %w", err)
	}
	// The file goes while the lock is held, so that no listing meets a
	// released lock with rows still behind it.
	rm := os.Remove(p.lock.f.Name())
	err = errors.Join(err, rm, p.lock.close())
	p.lock = nil
	return err
}

// insertLanes writes the lanes of a snapshot and their tasks.
func insertLanes(ctx context.Context, tx *sql.Tx, process string, ls []lanes.Lane) error {
	for i, l := range ls {
		if _, err := tx.ExecContext(ctx, `INSERT INTO lane_states (process_id, seq, name, kind, session_id, cap)
			VALUES (?, ?, ?, ?, ?, ?)`, process, i, l.Name, string(l.Kind), l.Session, l.Cap); err != nil {
			return err
		}
		for _, list := range []struct {
			state   string
			entries []lanes.Entry
		}{{"running", l.Running}, {"waiting", l.Waiting}} {
			for j, e := range list.entries {
				if _, err := tx.ExecContext(ctx, `INSERT INTO lane_tasks (process_id, lane_seq, state, seq, task_id,
					session_id, "trigger", priority, sub_agent, enqueued_at, started_at)
					VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
					process, i, list.state, j, e.ID, e.Session, e.Trigger, e.Priority.String(), e.SubAgent,
					ms(e.Enqueued), ms(e.Started)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// LaneSnapshots lists the snapshots of the live processes that publish
// their lanes (this one included), oldest process first, for `steer
// inspect lanes`. Rows of a process that died are left out and, on a store
// that may write, deleted. Every slice of the result is non-nil.
func (s *Store) LaneSnapshots(ctx context.Context) ([]ProcessLanes, error) {
	all, err := s.readLaneSnapshots(ctx)
	if err != nil {
		return nil, s.classify(fmt.Errorf("list lanes: %w", err))
	}
	live := make([]ProcessLanes, 0, len(all))
	var dead []string
	for _, p := range all {
		locked, err := lockedByOther(s.laneLockPath(p.ProcessID))
		if err != nil {
			return nil, fmt.Errorf("list lanes: %w", err)
		}
		if locked {
			live = append(live, p)
		} else {
			dead = append(dead, p.ProcessID)
		}
	}
	if len(dead) > 0 && s.writer != nil {
		if err := s.removeDeadPublishers(ctx, dead); err != nil {
			return nil, fmt.Errorf("list lanes: %w", err)
		}
	}
	return live, nil
}

// removeDeadPublishers deletes the rows and lock files of publishers whose
// lock nobody holds. Their ids are random, so none of them can come back.
func (s *Store) removeDeadPublishers(ctx context.Context, ids []string) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, `DELETE FROM lane_processes WHERE process_id = ?`, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, id := range ids {
		if err := os.Remove(s.laneLockPath(id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// readLaneSnapshots reads every stored snapshot in one read transaction,
// so that the three tables agree.
func (s *Store) readLaneSnapshots(ctx context.Context) ([]ProcessLanes, error) {
	tx, err := s.reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback() }()
	procs := map[string]*ProcessLanes{}
	err = eachRow(ctx, tx, `SELECT process_id, pid, host, started_at, published_at FROM lane_processes`,
		func(r *sql.Rows) error {
			p := &ProcessLanes{Snapshot: lanes.Snapshot{Lanes: []lanes.Lane{}}}
			var started, taken int64
			err := r.Scan(&p.ProcessID, &p.PID, &p.Host, &started, &taken)
			p.Started, p.Taken = fromMS(started), fromMS(taken)
			procs[p.ProcessID] = p
			return err
		})
	if err != nil {
		return nil, err
	}
	// A process's lanes are numbered from 0 without gaps (insertLanes), so
	// read in order each lands at its seq.
	err = eachRow(ctx, tx, `SELECT process_id, name, kind, session_id, cap FROM lane_states ORDER BY process_id, seq`,
		func(r *sql.Rows) error {
			var process, kind string
			l := lanes.Lane{Running: []lanes.Entry{}, Waiting: []lanes.Entry{}}
			if err := r.Scan(&process, &l.Name, &kind, &l.Session, &l.Cap); err != nil {
				return err
			}
			l.Kind = lanes.Kind(kind)
			if p := procs[process]; p != nil {
				p.Lanes = append(p.Lanes, l)
			}
			return nil
		})
	if err != nil {
		return nil, err
	}
	err = eachRow(ctx, tx, `SELECT process_id, lane_seq, state, task_id, session_id, "trigger", priority,
		sub_agent, enqueued_at, started_at FROM lane_tasks ORDER BY process_id, lane_seq, state, seq`,
		func(r *sql.Rows) error {
			var process, state, prio string
			var laneSeq int
			var e lanes.Entry
			var enq, started int64
			if err := r.Scan(&process, &laneSeq, &state, &e.ID, &e.Session, &e.Trigger, &prio, &e.SubAgent, &enq, &started); err != nil {
				return err
			}
			var err error
			if e.Priority, err = lanes.ParsePriority(prio); err != nil {
				return err
			}
			e.Enqueued, e.Started = fromMS(enq), fromMS(started)
			p := procs[process]
			if p == nil || laneSeq >= len(p.Lanes) {
				return nil
			}
			if l := &p.Lanes[laneSeq]; state == "running" {
				l.Running = append(l.Running, e)
			} else {
				l.Waiting = append(l.Waiting, e)
			}
			return nil
		})
	if err != nil {
		return nil, err
	}
	out := make([]ProcessLanes, 0, len(procs))
	for _, p := range procs {
		out = append(out, *p)
	}
	slices.SortFunc(out, func(a, b ProcessLanes) int {
		return cmp.Or(a.Started.Compare(b.Started), cmp.Compare(a.PID, b.PID), cmp.Compare(a.ProcessID, b.ProcessID))
	})
	return out, nil
}

// eachRow runs query in tx and hands each row to fn.
func eachRow(ctx context.Context, tx *sql.Tx, query string, fn func(*sql.Rows) error) error {
	rows, err := tx.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// lanesDir holds the publishers' lock files.
func (s *Store) lanesDir() string { return filepath.Join(s.dir, lanesDirName) }

// laneLockPath is publisher id's lock file.
func (s *Store) laneLockPath(id string) string { return filepath.Join(s.lanesDir(), id+".lock") }
