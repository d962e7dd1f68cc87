package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// The layout of a state directory.
const (
	dbFileName      = "steer.db"
	logsDirName     = "logs"
	sessionsDirName = "sessions" // one <id>.lock per session ever claimed
	// migrateLockName orders the openers of steer.db: each read-write Open
	// holds it exclusively while it checks the file and brings the schema up
	// to date, a read-only Open shares it while it checks, and nobody holds it
	// afterwards.
	migrateLockName = dbFileName + ".migrate.lock"
)

// migrateLockTimeout bounds the wait for another opener's check or
// migration. Checks take milliseconds; only a process stopped in the middle
// of one (or a migration of a huge database) makes anybody wait long.
const migrateLockTimeout = time.Minute

// readerPoolSize bounds the read-only connections; reads are short and the
// machines are small.
const readerPoolSize = 4

// sqliteMagic opens every SQLite database file.
const sqliteMagic = "SQLite format 3\x00"

// Options tunes Open. The zero value opens the directory for writing with the
// wall clock.
type Options struct {
	// ReadOnly opens an existing database without ever writing it (or
	// anything else in the directory), for read commands. It works while
	// other processes write. A database that still needs a migration is
	// refused instead of migrated.
	ReadOnly bool
	// Now is the clock for the times the store records; nil means time.Now.
	Now func() time.Time
	// Log, when enabled at debug, records every statement the store runs
	// (sqllog.go); nil logs nothing.
	Log *slog.Logger
}

// Store is an open state directory. Any number of stores, in any number of
// processes, may have one directory open at a time; each session is written
// through the one store that claims it (see ClaimSession). Its methods are
// safe for concurrent use.
type Store struct {
	dir    string
	path   string
	now    func() time.Time
	latest int // the schema version this binary writes

	guard  *legacyGuard  // nil when read-only
	writer *sql.DB       // the one writer connection; nil when read-only
	reader *sql.DB       // read-only connections
	ckpt   *checkpointer // nil when read-only
	gate   *writeGate    // nil when read-only

	log *slog.Logger // the statements, at debug; nil for none

	claimsMu sync.Mutex
	claims   map[string]*Claim // by session id; nil once closed

	closeOnce sync.Once
	closeErr  error
}

// Open opens the state directory dir, creating it (0700) with its logs/ and
// sessions/ subdirectories when missing, and brings steer.db up to this
// binary's schema, waiting while another process checks or migrates it.
// Other steer processes may have the directory open too. It returns a
// *CorruptError for a file that is not a SQLite database, a *NewerSchemaError
// for a database from a newer steer (in both cases the file is not modified)
// and a *LockedError while a steer from before per-session ownership holds
// the directory.
func Open(dir string, opts Options) (*Store, error) {
	return OpenContext(context.Background(), dir, opts)
}

// OpenContext is Open, given up when ctx ends: the waits for another
// opener's migration lock and for the database's write lock (a migration)
// end with ctx's error, and nothing stays open.
func OpenContext(ctx context.Context, dir string, opts Options) (*Store, error) {
	migs, err := embeddedMigrations()
	if err != nil {
		return nil, fmt.Errorf("embedded migrations: %w", err)
	}
	return open(ctx, dir, opts, migs)
}

// open is OpenContext with the migrations as a parameter, so tests can build
// databases at older versions.
func open(ctx context.Context, dir string, opts Options, migs []migration) (_ *Store, err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("state directory %s: %w", dir, err)
	}
	s := &Store{dir: abs, path: filepath.Join(abs, dbFileName), now: opts.Now, log: opts.Log, latest: len(migs),
		claims: map[string]*Claim{}}
	if s.now == nil {
		s.now = time.Now
	}
	defer func() {
		if err != nil {
			_ = s.closeAll(ctx) // claims none: nothing waits on ctx
		}
	}()
	if opts.ReadOnly {
		return s, s.openReadOnly(ctx, len(migs))
	}
	return s, s.openReadWrite(ctx, migs)
}

// openReadWrite creates the directory and, holding the migration lock, vets
// an existing file before anything can write to it, then opens the writer
// and migrates. Holding the lock makes concurrent first opens of a fresh
// directory safe: switching a new file to WAL and creating the schema happen
// once, and every later opener finds them done.
func (s *Store) openReadWrite(ctx context.Context, migs []migration) error {
	for _, d := range []string{s.dir, filepath.Join(s.dir, logsDirName), s.sessionsDir()} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return fmt.Errorf("create state directory: %w", err)
		}
	}
	guard, err := guardDir(s.dir)
	if err != nil {
		return err
	}
	s.guard = guard
	ml, err := s.lockMigrations(ctx, true)
	if err != nil {
		return err
	}
	defer ml.close()
	exists, err := checkHeader(s.path)
	if err != nil {
		return err
	}
	if exists {
		// The read-only probe reads the version through SQLite (a committed
		// migration may still sit in the WAL) without being able to write.
		if err := s.openReader(ctx); err != nil {
			return err
		}
		if _, err := s.probe(ctx, len(migs)); err != nil {
			return err
		}
	}
	if err := s.openWriter(ctx); err != nil {
		return err
	}
	if err := migrate(ctx, s.writer, s.path, migs); err != nil {
		return err
	}
	s.gate = newWriteGate(s.dir)
	if s.ckpt, err = startCheckpointer(s.path, s.gate, s.log); err != nil {
		return err
	}
	if s.reader == nil {
		return s.openReader(ctx)
	}
	return nil
}

// openReadOnly opens only the read pool on an existing, current database. It
// shares the migration lock while it checks, so that it waits for a
// migration in progress instead of refusing a database half way there; a
// directory no current steer has written has no lock file, and none is made.
func (s *Store) openReadOnly(ctx context.Context, latest int) error {
	ml, err := s.lockMigrations(ctx, false)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	defer ml.close()
	exists, err := checkHeader(s.path)
	if err != nil {
		return err
	}
	if !exists {
		return fmt.Errorf("state directory %s has no database yet: %w", s.dir, fs.ErrNotExist)
	}
	if err := s.openReader(ctx); err != nil {
		return err
	}
	v, err := s.probe(ctx, latest)
	if err != nil {
		return err
	}
	if v < latest {
		return fmt.Errorf("database %s has schema version %d and this steer needs %d; open it once without read-only access to migrate it",
			s.path, v, latest)
	}
	return nil
}

// lockMigrations takes the migration lock, exclusively for a read-write open.
// For a read-only open it returns an error wrapping fs.ErrNotExist when the
// lock file does not exist.
func (s *Store) lockMigrations(ctx context.Context, exclusive bool) (*lockFile, error) {
	path := filepath.Join(s.dir, migrateLockName)
	l, err := openLockFile(path, exclusive)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if err := l.lockWithin(ctx, exclusive, migrateLockTimeout); err != nil {
		l.close()
		return nil, fmt.Errorf("waiting for another steer process to finish opening or migrating %s: %w", s.path, err)
	}
	return l, nil
}

// openWriter opens the single writer connection and checks its settings.
func (s *Store) openWriter(ctx context.Context) error {
	db, err := openSQL(writerDSN(s.path), s.log, connWriter)
	if err != nil {
		return fmt.Errorf("open %s: %w", s.path, err)
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	s.writer = db
	if err := checkPragmas(ctx, s.writer, s.path, writerPragmas); err != nil {
		return s.classify(err)
	}
	return nil
}

// openReader opens the read-only pool and checks its settings.
func (s *Store) openReader(ctx context.Context) error {
	db, err := openSQL(readerDSN(s.path), s.log, connReader)
	if err != nil {
		return fmt.Errorf("open %s: %w", s.path, err)
	}
	db.SetMaxOpenConns(readerPoolSize)
	db.SetMaxIdleConns(readerPoolSize)
	s.reader = db
	if err := checkPragmas(ctx, s.reader, s.path, readerPragmas); err != nil {
		return s.classify(err)
	}
	return nil
}

// probe reads the schema through the read pool and returns the database's
// version, refusing a file SQLite cannot read, a database from a newer steer
// and a foreign database that has tables but no steer version.
func (s *Store) probe(ctx context.Context, latest int) (int, error) {
	var objects int
	if err := s.reader.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&objects); err != nil {
		return 0, s.classify(fmt.Errorf("read schema of %s: %w", s.path, err))
	}
	v, err := userVersion(ctx, s.reader)
	if err != nil {
		return 0, s.classify(fmt.Errorf("read schema version of %s: %w", s.path, err))
	}
	switch {
	case v > latest:
		return v, &NewerSchemaError{Path: s.path, Version: v, Supported: latest}
	case v == 0 && objects > 0:
		return v, &CorruptError{Path: s.path, Err: errors.New("it has tables but no steer schema version")}
	}
	return v, nil
}

// classify turns SQLite's "not a database" and "corrupt" answers into a
// *CorruptError. Open meets them for a foreign or mangled file; a database
// whose header and schema are sound but one of whose pages is garbage opens
// fine and gives them on the first read or write of that page, so the
// store's reads classify the errors they return, and write does for every
// write, and the user reads one message either way.
func (s *Store) classify(err error) error {
	if corrupt(err) {
		return &CorruptError{Path: s.path, Err: err}
	}
	return err
}

// checkHeader reports whether path holds a database, without SQLite: an
// absent or empty file is a new database, and a file that does not start with
// the SQLite header is refused before SQLite can touch it.
func checkHeader(path string) (bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	var hdr [len(sqliteMagic)]byte
	n, err := io.ReadFull(f, hdr[:])
	switch {
	case n == 0 && errors.Is(err, io.EOF):
		return false, nil
	case err != nil && !errors.Is(err, io.ErrUnexpectedEOF):
		return false, fmt.Errorf("read %s: %w", path, err)
	case string(hdr[:n]) != sqliteMagic:
		return false, &CorruptError{Path: path, Err: errors.New("the file does not start with the SQLite header")}
	}
	return true, nil
}

// Path returns the database file.
func (s *Store) Path() string { return s.path }

// Dir returns the state directory, as an absolute path.
func (s *Store) Dir() string { return s.dir }

// LogDir returns the logs/ directory inside the state directory.
func (s *Store) LogDir() string { return filepath.Join(s.dir, logsDirName) }

// sessionsDir is where the sessions' lock files live.
func (s *Store) sessionsDir() string { return filepath.Join(s.dir, sessionsDirName) }

// Close releases the sessions this store claims and closes the database. It
// is safe to call more than once. A process that must quit on time closes
// with CloseContext.
func (s *Store) Close() error {
	return s.CloseContext(context.Background())
}

// CloseContext is Close with the releases of the claims bounded by ctx: on a
// database another process keeps locked, the records of ownership not yet
// deleted when ctx ends are left behind (their OS locks, which decide who
// owns a session, go regardless; see Claim.Release) and the error says so.
// Only the first call of Close or CloseContext closes.
func (s *Store) CloseContext(ctx context.Context) error {
	s.closeOnce.Do(func() { s.closeErr = s.closeAll(ctx) })
	return s.closeErr
}

// closeAll closes what is open; the claims go first (releasing one writes,
// within ctx), the writer last so that it checkpoints the WAL into the main
// file when it is the database's last connection.
func (s *Store) closeAll(ctx context.Context) error {
	errs := []error{s.releaseAll(ctx), s.ckpt.stop()}
	s.gate.close()
	if s.reader != nil {
		errs = append(errs, s.reader.Close())
	}
	if s.writer != nil {
		errs = append(errs, s.writer.Close())
	}
	errs = append(errs, s.guard.release())
	return errors.Join(errs...)
}
