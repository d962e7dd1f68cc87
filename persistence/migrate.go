package persistence

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"sync"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migration is one schema step: the SQL that takes a database from version-1
// to version.
type migration struct {
	version int
	name    string
	sql     string
}

// migrationName is NNNN_what.sql.
var migrationName = regexp.MustCompile(`^([0-9]{4})_[a-z0-9_]+\.sql$`)

// embeddedMigrations parses the embedded files once.
var embeddedMigrations = sync.OnceValues(func() ([]migration, error) {
	sub, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		return nil, err
	}
	return loadMigrations(sub)
})

// loadMigrations reads the *.sql files of fsys, ordered by version, and checks
// that they are numbered 1..N without gaps or duplicates.
func loadMigrations(fsys fs.FS) ([]migration, error) {
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return nil, err
	}
	var migs []migration
	for _, name := range names {
		m := migrationName.FindStringSubmatch(path.Base(name))
		if m == nil {
			return nil, fmt.Errorf("migration %s: the name must look like 0001_what.sql", name)
		}
		v, _ := strconv.Atoi(m[1])
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		migs = append(migs, migration{version: v, name: name, sql: string(body)})
	}
	sort.Slice(migs, func(i, j int) bool { return migs[i].version < migs[j].version })
	for i, m := range migs {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: expected version %d (versions run 1..N without gaps)", m.name, i+1)
		}
	}
	return migs, nil
}

// userVersion reads the schema version the database records.
func userVersion(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (int, error) {
	var v int
	err := q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	return v, err
}

// migrate applies the migrations the database has not seen, each in its own
// immediate transaction that also records the new version, so a failure leaves
// the database at the last complete version. A database newer than migs is
// refused before anything is written.
func migrate(ctx context.Context, db *sql.DB, dbPath string, migs []migration) error {
	v, err := userVersion(ctx, db)
	if err != nil {
		return fmt.Errorf("read schema version of %s: %w", dbPath, err)
	}
	switch {
	case v > len(migs):
		return &NewerSchemaError{Path: dbPath, Version: v, Supported: len(migs)}
	case v == len(migs):
		return nil // the common case: no write transaction at all
	}
	for _, m := range migs[v:] {
		if err := applyMigration(ctx, db, dbPath, m, len(migs)); err != nil {
			return err
		}
	}
	return nil
}

// applyMigration applies m unless the database is already at its version or
// later. The version is read inside the transaction, under the write lock.
func applyMigration(ctx context.Context, db *sql.DB, dbPath string, m migration, latest int) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate %s: %w", dbPath, err)
	}
	defer func() { _ = tx.Rollback() }()
	v, err := userVersion(ctx, tx)
	if err != nil {
		return fmt.Errorf("migrate %s: %w", dbPath, err)
	}
	if v > latest {
		return &NewerSchemaError{Path: dbPath, Version: v, Supported: latest}
	}
	if v >= m.version {
		return nil
	}
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return fmt.Errorf("migrate %s to version %d (%s): %w", dbPath, m.version, m.name, err)
	}
	// PRAGMA takes no bound parameters; the version is an integer we parsed.
	if _, err := tx.ExecContext(ctx, "PRAGMA user_version = "+strconv.Itoa(m.version)); err != nil {
		return fmt.Errorf("migrate %s: record version %d: %w", dbPath, m.version, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrate %s to version %d: %w", dbPath, m.version, err)
	}
	return nil
}
