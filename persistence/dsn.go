package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"syscall"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// driverName is the database/sql driver modernc.org/sqlite registers.
const driverName = "sqlite"

// init makes SQLite lock database files with open-file-description locks
// where the kernel has them (Linux). With the default POSIX locks, closing any
// descriptor of steer.db in this process — checkHeader reads the file, and a
// process may hold several stores — silently drops every lock SQLite holds on
// it, and another process could then take the file for itself (checkpoint and
// delete the WAL) under our connections. The switch is process-wide and only
// possible before the first database is opened, hence init; where OFD locks
// do not exist it changes nothing. Processes of both kinds still exclude each
// other: the kernel treats the two kinds of lock as conflicting owners.
func init() {
	_, _ = sqlite.OFDLocking(true)
}

// The per-connection settings. Every connection gets them from its DSN, so a
// connection the pool opens later is configured like the first one.
const (
	busyTimeoutMillis = 5000
	journalMode       = "wal"
	synchronousNormal = 1 // PRAGMA synchronous reads back as a number
	foreignKeysOn     = 1
	txLock            = "immediate"
)

// The DSN parameters, in the order STACK.md prescribes, with SQLite's
// automatic checkpoint moved far out of the way of appends (see
// walResetFrames).
var (
	writerParams = []string{
		"_pragma=busy_timeout(" + strconv.Itoa(busyTimeoutMillis) + ")",
		"_pragma=journal_mode(" + strings.ToUpper(journalMode) + ")",
		"_pragma=synchronous(NORMAL)",
		"_pragma=foreign_keys(" + strconv.Itoa(foreignKeysOn) + ")",
		"_pragma=wal_autocheckpoint(" + strconv.Itoa(walAutocheckpointPages) + ")",
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
	{"wal_autocheckpoint", strconv.Itoa(walAutocheckpointPages)},
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

// DiskFull reports whether err says that the disk (or the database's size
// limit) is full: SQLITE_FULL, or ENOSPC met outside SQLite. Saving may work
// again once space is freed.
func DiskFull(err error) bool {
	return sqliteCode(err) == sqlite3.SQLITE_FULL || errors.Is(err, syscall.ENOSPC)
}
