package persistence

import (
	"context"
	"fmt"
)

// DataVersion is a counter that moves when another connection commits to
// the database — another steer process, or another store on the same
// directory — and stays put for this store's own writes. It is SQLite's
// PRAGMA data_version on the writer connection: one cheap read that scans
// no table, so a front end can ask it every few seconds and read the shared
// state (the ledger, the quarantines) again only when it moved. A read-only
// store has no writer connection and returns ErrReadOnly.
func (s *Store) DataVersion(ctx context.Context) (uint64, error) {
	if s.writer == nil {
		return 0, ErrReadOnly
	}
	var v uint64
	if err := s.writer.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v); err != nil {
		return 0, s.classify(fmt.Errorf("read PRAGMA data_version of %s: %w", s.path, err))
	}
	return v, nil
}
