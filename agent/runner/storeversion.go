package runner

import "context"

// StoreVersion is a counter that moves when another steer process changes
// the shared state directory (persistence.Store.DataVersion) and stays put
// for this process's own writes, whose facts the runtime announces as
// events (facts.go). A front end reads it every few seconds — one PRAGMA,
// no table — and reads the ledger and the quarantines again only when it
// moved. Without a store nothing else shares the state, and it is 0.
func (r *Runtime) StoreVersion(ctx context.Context) (uint64, error) {
	if r.store == nil {
		return 0, nil
	}
	return r.store.DataVersion(ctx)
}

// StoreVersion is the store's counter (Runtime.StoreVersion): the sessions
// of a host share one store.
func (h *Host) StoreVersion(ctx context.Context) (uint64, error) {
	return h.first.StoreVersion(ctx)
}
