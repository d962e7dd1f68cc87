package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// driverName is the database/sql driver modernc.org/sqlite registers.
const driverName = "sqlite"

// The per-connection settings. Every connection gets them from its DSN, so a
// connection the pool opens later is configured like the first one.
const (
	busyTimeoutMillis = 5000
	journalMode       = "wal"
	synchronousNormal = 1 // PRAGMA synchronous reads back as a number
	foreignKeysOn     = 1
	txLock            = "immediate"
)

// The DSN parameters, in the order STACK.md prescribes.
var (
	writerParams = []string{
		"_pragma=busy_timeout(" + strconv.Itoa(busyTimeoutMillis) + ")",
		"_pragma=journal_mode(" + strings.ToUpper(journalMode) + ")",
		"_pragma=synchronous(NORMAL)",
		"_pragma=foreign_keys(" + strconv.Itoa(foreignKeysOn) + ")",
		"_txlock=" + txLock,
	}
	// readerParams open a connection that cannot write: mode=ro is SQLite's own
	// read-only open, and it never changes the journal mode of the file.
	readerParams = []string{
		"mode=ro",
		"_pragma=busy_timeout(" + strconv.Itoa(busyTimeoutMillis) + ")",
	}
)

// writerDSN is the DSN of the one writer connection.
func writerDSN(path string) string { return dsn(path, writerParams) }

// readerDSN is the DSN of the read-only pool.
func readerDSN(path string) string { return dsn(path, readerParams) }

// dsn builds a file: URI. SQLite decodes %HH in the path, so the characters
// that would end the path or start an escape are escaped.
func dsn(path string, params []string) string {
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	return "file:" + esc + "?" + strings.Join(params, "&")
}

// pragmaWant is one setting read back after Open.
type pragmaWant struct {
	name string
	want string
}

// writerPragmas are the settings the writer connection must report.
var writerPragmas = []pragmaWant{
	{"busy_timeout", strconv.Itoa(busyTimeoutMillis)},
	{"journal_mode", journalMode},
	{"synchronous", strconv.Itoa(synchronousNormal)},
	{"foreign_keys", strconv.Itoa(foreignKeysOn)},
}

// readerPragmas are the settings a reader connection must report.
var readerPragmas = []pragmaWant{
	{"busy_timeout", strconv.Itoa(busyTimeoutMillis)},
}

// checkPragmas reads each setting back and fails when one differs: a silently
// ignored DSN parameter would otherwise cost durability or correctness.
func checkPragmas(ctx context.Context, db *sql.DB, path string, wants []pragmaWant) error {
	for _, p := range wants {
		var got string
		if err := db.QueryRowContext(ctx, "PRAGMA "+p.name).Scan(&got); err != nil {
			return fmt.Errorf("read PRAGMA %s of %s: %w", p.name, path, err)
		}
		if !strings.EqualFold(got, p.want) {
			return fmt.Errorf("database %s: PRAGMA %s is %q, want %q", path, p.name, got, p.want)
		}
	}
	return nil
}

// sqliteCode returns the primary SQLite result code of err, or 0.
func sqliteCode(err error) int {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() & 0xff
	}
	return 0
}

// retryable reports whether err is SQLITE_BUSY or SQLITE_LOCKED, which a
// later attempt may not meet.
func retryable(err error) bool {
	switch sqliteCode(err) {
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return true
	}
	return false
}

// corrupt reports whether err says the file is not a (sound) database.
func corrupt(err error) bool {
	switch sqliteCode(err) {
	case sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT:
		return true
	}
	return false
}
