package persistence

import (
	"context"
	"database/sql"

	"github.com/steer-tui/steer/agent/stackroom"
)

// sqlDB is a database/sql handle whose calls into SQLite first make room on
// the calling goroutine's stack (package stackroom: SQLite, C translated to
// Go, runs deep through giant functions). Rows and transactions it returns
// are used on the goroutine that asked for them, which has the room. Only
// the context methods the store calls are wrapped: the others it embeds
// (Exec, Query, PrepareContext, Conn, ...) go in without room, as do
// database/sql's own goroutines (opening connections, rolling back a
// transaction whose context ended).
type sqlDB struct{ *sql.DB }

func (d sqlDB) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	stackroom.Make()
	return d.DB.ExecContext(ctx, query, args...)
}

func (d sqlDB) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	stackroom.Make()
	return d.DB.QueryContext(ctx, query, args...)
}

func (d sqlDB) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	stackroom.Make()
	return d.DB.QueryRowContext(ctx, query, args...)
}

func (d sqlDB) BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error) {
	stackroom.Make()
	return d.DB.BeginTx(ctx, opts)
}

// Close closes the handle; closing SQLite's last connection checkpoints the
// WAL, which runs deep too.
func (d sqlDB) Close() error {
	stackroom.Make()
	return d.DB.Close()
}
