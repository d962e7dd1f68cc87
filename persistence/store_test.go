package persistence

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

func TestOpenCreatesTheStateDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "steer")
	s := openStore(t, dir)
	for _, d := range []string{dir, filepath.Join(dir, "logs")} {
		fi, err := os.Stat(d)
		if err != nil {
			t.Fatal(err)
		}
		if perm := fi.Mode().Perm(); perm != 0o700 {
			t.Errorf("%s: mode %v, want 0700", d, perm)
		}
	}
	if s.Path() != filepath.Join(dir, "steer.db") || s.LogDir() != filepath.Join(dir, "logs") || s.Dir() != dir {
		t.Errorf("Path %q, LogDir %q, Dir %q", s.Path(), s.LogDir(), s.Dir())
	}
	if fi, err := os.Stat(filepath.Join(dir, "sessions")); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("sessions/: %v, %v", fi, err)
	}
}

func TestDSNIsTheDocumentedOne(t *testing.T) {
	const want = "file:/state/steer.db?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)" +
		"&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(1)&_pragma=wal_autocheckpoint(16000)&_txlock=immediate"
	if got := writerDSN("/state/steer.db"); got != want {
		t.Errorf("writerDSN:\n got %s\nwant %s", got, want)
	}
	if got := readerDSN("/a b/100%?#.db"); got != "file:/a b/100%25%3f%23.db?mode=ro&_pragma=busy_timeout(5000)" {
		t.Errorf("readerDSN escapes badly: %s", got)
	}
}

func TestOpenChecksThePragmas(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "odd ?#% name"))
	ctx := context.Background()
	if err := checkPragmas(ctx, s.writer, s.path, writerPragmas); err != nil {
		t.Fatal(err)
	}
	if err := checkPragmas(ctx, s.reader, s.path, append(readerPragmas, pragmaWant{"journal_mode", "wal"})); err != nil {
		t.Fatal(err)
	}
	// A setting that differs is reported, naming the pragma.
	err := checkPragmas(ctx, s.writer, s.path, []pragmaWant{{"synchronous", "2"}})
	if err == nil || !strings.Contains(err.Error(), "synchronous") {
		t.Fatalf("a differing pragma gave %v", err)
	}
}

func TestCloseIsIdempotentAndFreesTheDirectory(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	openStore(t, dir)
}

func TestCorruptFileIsRefusedAndLeftAlone(t *testing.T) {
	random := make([]byte, 8192)
	_, _ = rand.Read(random)
	headerThenGarbage := append([]byte(sqliteMagic), random[:4096]...)
	tests := []struct {
		name    string
		content []byte
	}{
		{"random bytes", random},
		{"a few bytes", []byte("hello")},
		{"sqlite header then garbage", headerThenGarbage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "steer.db")
			if err := os.WriteFile(path, tt.content, 0o600); err != nil {
				t.Fatal(err)
			}
			for _, ro := range []bool{false, true} {
				s, err := Open(dir, Options{ReadOnly: ro})
				var ce *CorruptError
				if !errors.As(err, &ce) {
					if s != nil {
						s.Close()
					}
					t.Fatalf("ReadOnly=%v: Open gave %v, want *CorruptError", ro, err)
				}
				if ce.Path != path || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "\n") {
					t.Errorf("message %q should be one line naming %s", err, path)
				}
				assertUnchanged(t, path, tt.content)
			}
			// The refusal released the locks.
			g, err := guardDir(dir)
			if err != nil {
				t.Fatalf("the directory stayed locked: %v", err)
			}
			g.release()
			ml, err := openLockFile(filepath.Join(dir, migrateLockName), true)
			if err != nil {
				t.Fatal(err)
			}
			if ok, err := ml.tryLock(true); !ok || err != nil {
				t.Fatalf("the migration lock stayed held: %v, %v", ok, err)
			}
			ml.close()
		})
	}
}

func TestForeignDatabaseIsRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "steer.db")
	db, err := sql.Open(driverName, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE notes (body TEXT)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	before := fileBytes(t, path)
	_, err = Open(dir, Options{})
	var ce *CorruptError
	if !errors.As(err, &ce) {
		t.Fatalf("Open gave %v, want *CorruptError", err)
	}
	assertUnchanged(t, path, before)
}

func TestReadOnlyOpenReadsWhileAnotherWrites(t *testing.T) {
	f := newFixture(t)
	f.append(t, user("hello", 1))
	ro, err := Open(f.store.Dir(), Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only Open beside a writer: %v", err)
	}
	defer ro.Close()
	list, err := ro.ListSessions(f.ctx, ListOptions{})
	if err != nil || len(list) != 1 || list[0].Title != "hello" {
		t.Fatalf("ListSessions = %+v, %v", list, err)
	}
	msgs, err := ro.LoadTranscript(f.ctx, testSession)
	if err != nil || len(msgs) != 1 {
		t.Fatalf("LoadTranscript = %v, %v", msgs, err)
	}
	if err := ro.CreateSession(f.ctx, Session{ID: "s2"}); !errors.Is(err, ErrReadOnly) {
		t.Errorf("a write through the read-only store gave %v, want ErrReadOnly", err)
	}
	// The writer keeps writing and the reader sees it.
	f.append(t, assistantText("hi", 2))
	if msgs, _ := ro.LoadTranscript(f.ctx, testSession); len(msgs) != 2 {
		t.Errorf("the reader sees %d messages, want 2", len(msgs))
	}
}

func TestReadOnlyOpenRefusesWhatItCannotRead(t *testing.T) {
	if _, err := Open(filepath.Join(t.TempDir(), "missing"), Options{ReadOnly: true}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing directory gave %v, want fs.ErrNotExist", err)
	}
	// A database that needs a migration is not migrated.
	dir := t.TempDir()
	path := buildAtVersion(t, dir, 0)
	before := fileBytes(t, path)
	_, err := Open(dir, Options{ReadOnly: true})
	if err == nil || !strings.Contains(err.Error(), "schema version 0") {
		t.Fatalf("an old database opened read-only gave %v", err)
	}
	assertUnchanged(t, path, before)
}

// TestReopenAfterACrash opens copies of the files a killed process leaves
// behind (a WAL that was never checkpointed, with or without its index).
func TestReopenAfterACrash(t *testing.T) {
	for _, withSHM := range []bool{true, false} {
		t.Run("shm="+strconv.FormatBool(withSHM), func(t *testing.T) {
			f := newFixture(t)
			want := []agent.Message{user("one", 1), assistantText("two", 2)}
			f.append(t, want...)
			crashed := t.TempDir()
			files := []string{"steer.db", "steer.db-wal"}
			if withSHM {
				files = append(files, "steer.db-shm")
			}
			for _, name := range files {
				b := fileBytes(t, filepath.Join(f.store.Dir(), name))
				if err := os.WriteFile(filepath.Join(crashed, name), b, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			s := openStore(t, crashed)
			got, err := s.LoadTranscript(f.ctx, testSession)
			if err != nil {
				t.Fatal(err)
			}
			assertMessages(t, got, want)
			var ok string
			if err := s.writer.QueryRow("PRAGMA integrity_check").Scan(&ok); err != nil || ok != "ok" {
				t.Fatalf("integrity_check = %q, %v", ok, err)
			}
		})
	}
}

func TestBusyIsRetryable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.db")
	ctx := context.Background()
	hold := rawConn(t, path)
	if _, err := hold.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	_, err := rawConn(t, path).ExecContext(ctx, "BEGIN IMMEDIATE")
	if err == nil || !retryable(err) {
		t.Fatalf("a second writer got %v, want a retryable SQLITE_BUSY", err)
	}
	if retryable(errors.New("other")) || retryable(nil) {
		t.Error("plain errors are not retryable")
	}
}

func TestWriteWaitsOutAnotherWriter(t *testing.T) {
	f := newFixture(t)
	hold := rawConn(t, f.store.Path())
	if _, err := hold.ExecContext(f.ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- f.store.AppendMessage(f.ctx, testSession, testRun, user("waited", 1)) }()
	time.Sleep(50 * time.Millisecond) // let the append meet the lock
	if _, err := hold.ExecContext(f.ctx, "COMMIT"); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the append did not wait out the other writer: %v", err)
	}
}

// rawConn is a connection to path that bypasses the store (and its lock), with
// no busy timeout.
func rawConn(t testing.TB, path string) *sql.Conn {
	t.Helper()
	db, err := sql.Open(driverName, path)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(); db.Close() })
	return conn
}

// TestAWriteThatStaysBusyIsReported: a write that cannot get the write lock
// fails — with ErrBusy once its retries are spent, with the caller's context
// error when that ends first — writes nothing, and is never reported as done.
func TestAWriteThatStaysBusyIsReported(t *testing.T) {
	f := newFixture(t)
	hold := rawConn(t, f.store.Path())
	if _, err := hold.ExecContext(f.ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(f.ctx, 100*time.Millisecond)
	defer cancel()
	err := f.store.AppendMessage(ctx, testSession, testRun, user("lost?", 1))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a write past its deadline gave %v", err)
	}

	// SQLite's busy answer on every attempt (what a lock held past the busy
	// timeout gives) spends the retries.
	_, busy := rawConn(t, f.store.Path()).ExecContext(f.ctx, "BEGIN IMMEDIATE")
	if !retryable(busy) {
		t.Fatalf("no busy error to replay: %v", busy)
	}
	if _, err := hold.ExecContext(f.ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	attempts := 0
	err = f.store.write(f.ctx, func(*sql.Tx) error { attempts++; return busy })
	if !errors.Is(err, ErrBusy) || attempts != maxWriteAttempts || !strings.Contains(err.Error(), "locked") {
		t.Fatalf("after %d attempts: %v, want ErrBusy after %d", attempts, err, maxWriteAttempts)
	}
	if got := f.transcript(t); len(got) != 0 {
		t.Errorf("the failed writes left %d messages", len(got))
	}
	f.append(t, user("later", 2))
}
