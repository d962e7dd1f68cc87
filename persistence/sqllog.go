package persistence

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"
)

// Statement logging: with Options.Log enabled at debug, every statement a
// store's connections run — the writer's, the readers', the checkpointer's,
// prepared or not, and the BEGIN, COMMIT and ROLLBACK around them — is a
// debug record "sqlite" {conn, stmt, ms}, its text on one line and cut
// at stmtLogMax. The
// arguments are never logged (they hold transcripts and keys). Without it
// the connections are SQLite's own, unwrapped.

// stmtLogMax bounds a statement's text in a record, in bytes: a migration
// is a whole script.
const stmtLogMax = 240

// The connections a record names.
const (
	connWriter     = "writer"
	connReader     = "reader"
	connCheckpoint = "checkpoint"
)

// openSQL opens a pool of connections to dsn, logged at debug by log when
// log is enabled at that level.
func openSQL(dsn string, log *slog.Logger, conn string) (*sql.DB, error) {
	if log == nil || !log.Enabled(context.Background(), slog.LevelDebug) {
		return sql.Open(driverName, dsn)
	}
	plain, err := sql.Open(driverName, "")
	if err != nil {
		return nil, err
	}
	drv := plain.Driver()
	_ = plain.Close() // it never connected: only its driver is wanted
	return sql.OpenDB(loggedConnector{drv: drv, dsn: dsn, log: log, conn: conn}), nil
}

// sqliteConn is what modernc.org/sqlite's connections implement and
// database/sql uses; the wrapper forwards all of it.
type sqliteConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// sqliteStmt is what its prepared statements implement.
type sqliteStmt interface {
	driver.Stmt
	driver.StmtExecContext
	driver.StmtQueryContext
}

type loggedConnector struct {
	drv  driver.Driver
	dsn  string
	log  *slog.Logger
	conn string
}

func (c loggedConnector) Connect(context.Context) (driver.Conn, error) {
	dc, err := c.drv.Open(c.dsn)
	if err != nil {
		return nil, err
	}
	sc, ok := dc.(sqliteConn)
	if !ok { // another driver's connection: used as it is, unlogged
		return dc, nil
	}
	return loggedConn{sqliteConn: sc, stmts: statementLog{log: c.log, conn: c.conn}}, nil
}

func (c loggedConnector) Driver() driver.Driver { return c.drv }

// statementLog writes the records of one connection pool.
type statementLog struct {
	log  *slog.Logger
	conn string
}

// ran records query, which took since start.
func (l statementLog) ran(ctx context.Context, query string, start time.Time) {
	l.log.LogAttrs(ctx, slog.LevelDebug, "sqlite", slog.String("conn", l.conn),
		slog.String("stmt", oneLine(query)),
		slog.Float64("ms", float64(time.Since(start).Microseconds())/1000))
}

// oneLine is query on one line, cut to stmtLogMax bytes (at a rune).
func oneLine(query string) string {
	q := strings.Join(strings.Fields(query), " ")
	if len(q) <= stmtLogMax {
		return q
	}
	cut := stmtLogMax
	for cut > 0 && !utf8.RuneStart(q[cut]) {
		cut--
	}
	return q[:cut] + "…"
}

type loggedConn struct {
	sqliteConn
	stmts statementLog
}

func (c loggedConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	defer c.stmts.ran(ctx, query, time.Now())
	return c.sqliteConn.ExecContext(ctx, query, args)
}

func (c loggedConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	defer c.stmts.ran(ctx, query, time.Now())
	return c.sqliteConn.QueryContext(ctx, query, args)
}

func (c loggedConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	st, err := c.sqliteConn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	ss, ok := st.(sqliteStmt)
	if !ok {
		return st, nil
	}
	return loggedStmt{sqliteStmt: ss, query: query, stmts: c.stmts}, nil
}

func (c loggedConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	defer c.stmts.ran(ctx, "BEGIN", time.Now())
	tx, err := c.sqliteConn.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return loggedTx{tx: tx, stmts: c.stmts}, nil
}

type loggedStmt struct {
	sqliteStmt
	query string
	stmts statementLog
}

func (s loggedStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	defer s.stmts.ran(ctx, s.query, time.Now())
	return s.sqliteStmt.ExecContext(ctx, args)
}

func (s loggedStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	defer s.stmts.ran(ctx, s.query, time.Now())
	return s.sqliteStmt.QueryContext(ctx, args)
}

type loggedTx struct {
	tx    driver.Tx
	stmts statementLog
}

func (t loggedTx) Commit() error {
	defer t.stmts.ran(context.Background(), "COMMIT", time.Now())
	return t.tx.Commit()
}

func (t loggedTx) Rollback() error {
	defer t.stmts.ran(context.Background(), "ROLLBACK", time.Now())
	return t.tx.Rollback()
}
