package persistence

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// StaleLease is how old a steering lease may grow before its items count as
// pending again (seed): a run that leased them and then died, or hangs,
// does not keep them from the next one.
const StaleLease = 5 * time.Minute

// ErrLeaseLost is returned (wrapped) by AckSteering for items its lease no
// longer holds: the lease went stale and a later one took them, so they may
// be delivered twice.
var ErrLeaseLost = errors.New("the steering lease no longer holds the items")

// SteeringItem is a result waiting to be delivered to a session's run as
// steering — a sub-agent's answer to its parent, say (SPEC §7). Items are
// delivered through leases: LeaseSteering marks the pending ones in
// progress, the run injects them and acknowledges them (AckSteering, which
// deletes them) or, when the injection failed, releases them
// (ReleaseSteering, which makes them pending again). So a failed parent turn
// loses no result and a delivered one is not delivered again.
type SteeringItem struct {
	// ID names the item; the caller makes it up, unique in the database.
	ID string
	// SessionID is the session whose run receives it.
	SessionID string
	// Source says where it came from, e.g. the child session's id.
	Source string
	Text   string
	// Created orders the items; a zero Created is now.
	Created time.Time
	// LeaseID is the lease holding the item, "" while it is pending;
	// Leased is when that lease was taken.
	LeaseID string
	Leased  time.Time
}

// EnqueueSteering stores a pending item for its session, durable when it
// returns. The session must exist (else ErrNotFound); the item's lease
// fields are ignored.
func (s *Store) EnqueueSteering(ctx context.Context, item SteeringItem) error {
	if item.ID == "" || item.SessionID == "" {
		return fmt.Errorf("enqueue steering item %q for session %q: empty id", item.ID, item.SessionID)
	}
	if item.Created.IsZero() {
		item.Created = s.now()
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		var one int
		err := tx.QueryRowContext(ctx, `SELECT 1 FROM sessions WHERE id = ?`, item.SessionID).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("session %s: %w", item.SessionID, ErrNotFound)
		}
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO steering_items (item_id, session_id, source, text, created_at)
			VALUES (?, ?, ?, ?, ?)`, item.ID, item.SessionID, item.Source, item.Text, ms(item.Created))
		return err
	})
	if err != nil {
		return fmt.Errorf("enqueue steering item %s: %w", item.ID, err)
	}
	return nil
}

// LeaseSteering takes every item of the session that is pending — stale
// leases' items included — under a new lease, oldest first, and returns the
// lease's id and the items; no items (and lease "") when there are none. The
// caller injects them and then acknowledges the ones delivered
// (AckSteering) and releases the lease (ReleaseSteering), which returns
// the rest to the queue.
func (s *Store) LeaseSteering(ctx context.Context, sessionID string) (string, []SteeringItem, error) {
	lease := "lease-" + rand.Text()
	var items []SteeringItem
	err := s.write(ctx, func(tx *sql.Tx) error {
		now := s.now()
		var err error
		if items, err = pendingSteering(ctx, tx, sessionID, now); err != nil || len(items) == 0 {
			return err
		}
		now = fromMS(ms(now)) // as stored
		for i := range items {
			if _, err := tx.ExecContext(ctx, `UPDATE steering_items SET lease_id = ?, leased_at = ? WHERE item_id = ?`,
				lease, ms(now), items[i].ID); err != nil {
				return err
			}
			items[i].LeaseID, items[i].Leased = lease, now
		}
		return nil
	})
	if err != nil {
		return "", nil, fmt.Errorf("lease steering of session %s: %w", sessionID, err)
	}
	if len(items) == 0 {
		return "", nil, nil
	}
	return lease, items, nil
}

// AckSteering deletes items the lease delivered: the ones named, or all of
// the lease's when none is named. An item the lease no longer holds (its
// lease went stale and a later one took it) gives an error wrapping
// ErrLeaseLost; the others are deleted all the same. A stale lease stays
// good until another takes its items.
func (s *Store) AckSteering(ctx context.Context, leaseID string, itemIDs ...string) error {
	if leaseID == "" {
		return errors.New("ack steering: empty lease id")
	}
	var lost []string
	err := s.write(ctx, func(tx *sql.Tx) error {
		lost = nil
		if len(itemIDs) == 0 {
			res, err := tx.ExecContext(ctx, `DELETE FROM steering_items WHERE lease_id = ?`, leaseID)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil || n == 0 {
				lost = append(lost, "all")
				return err
			}
			return nil
		}
		for _, id := range itemIDs {
			res, err := tx.ExecContext(ctx, `DELETE FROM steering_items WHERE lease_id = ? AND item_id = ?`, leaseID, id)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil || n == 0 {
				lost = append(lost, id)
				if err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err == nil && len(lost) > 0 {
		err = fmt.Errorf("items %s: %w", strings.Join(lost, ", "), ErrLeaseLost)
	}
	if err != nil {
		return fmt.Errorf("ack steering lease %s: %w", leaseID, err)
	}
	return nil
}

// ReleaseSteering returns the items the lease still holds to the queue,
// pending again in their order: the run could not deliver them. A lease
// that holds nothing (all acknowledged, or taken over) releases nothing.
func (s *Store) ReleaseSteering(ctx context.Context, leaseID string) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE steering_items SET lease_id = NULL, leased_at = 0 WHERE lease_id = ?`, leaseID)
		return err
	})
	if err != nil {
		return fmt.Errorf("release steering lease %s: %w", leaseID, err)
	}
	return nil
}

// PendingSteering lists the session's items that a lease would take now,
// oldest first: the pending ones and those of stale leases, all shown as
// pending.
func (s *Store) PendingSteering(ctx context.Context, sessionID string) ([]SteeringItem, error) {
	items, err := pendingSteering(ctx, s.reader, sessionID, s.now())
	if err != nil {
		return nil, fmt.Errorf("pending steering of session %s: %w", sessionID, err)
	}
	return items, nil
}

// pendingSteering reads the items a lease taken at now would take.
func pendingSteering(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, sessionID string, now time.Time) ([]SteeringItem, error) {
	rows, err := q.QueryContext(ctx, `SELECT item_id, source, text, created_at FROM steering_items
		WHERE session_id = ? AND (lease_id IS NULL OR leased_at < ?)
		ORDER BY created_at, rowid`, sessionID, ms(now.Add(-StaleLease)))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var items []SteeringItem
	for rows.Next() {
		it := SteeringItem{SessionID: sessionID}
		var created int64
		if err := rows.Scan(&it.ID, &it.Source, &it.Text, &created); err != nil {
			return nil, err
		}
		it.Created = fromMS(created)
		items = append(items, it)
	}
	return items, rows.Err()
}
