package runner

import "context"

// StoreVersion is a counter that moves when another steer process changes
// the shared state directory (persistence.Store.DataVersion) and stays put
// for this process's own writes, whose facts the runtime announces as
// events (facts.go). A front end reads it every few seconds — one PRAGMA,
// no table — and reads the ledger and the quarantines again only when it
// moved. Without a store nothing else shares the state, and it is 0.
func (i *inspectors) StoreVersion(ctx context.Context) (uint64, error) {
	if i.store == nil {
		return 0, nil
	}
	return i.store.DataVersion(ctx)
}
