package persistence

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
)

// embedded returns the shipped migrations.
func embedded(t testing.TB) []migration {
	t.Helper()
	migs, err := embeddedMigrations()
	if err != nil {
		t.Fatal(err)
	}
	return migs
}

// buildAtVersion creates dir/steer.db holding the first n shipped migrations,
// as a steer of that version would have left it, and returns its path.
func buildAtVersion(t testing.TB, dir string, n int) string {
	t.Helper()
	path := filepath.Join(dir, dbFileName)
	db, err := sql.Open(driverName, writerDSN(path))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if err := migrate(context.Background(), db, path, embedded(t)[:n]); err != nil {
		t.Fatal(err)
	}
	if err := db.Ping(); err != nil { // version 0 still creates the file
		t.Fatal(err)
	}
	return path
}

// schemaOf lists the schema's SQL, sorted, and the recorded version.
func schemaOf(t testing.TB, db *sql.DB) ([]string, int) {
	t.Helper()
	rows, err := db.Query(`SELECT type || ' ' || name || ': ' || COALESCE(sql, '') FROM sqlite_schema ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	v, err := userVersion(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	return out, v
}

func TestShippedMigrationsAreWellFormed(t *testing.T) {
	migs := embedded(t)
	if len(migs) == 0 {
		t.Fatal("no migrations embedded")
	}
	for i, m := range migs {
		if m.version != i+1 || strings.TrimSpace(m.sql) == "" {
			t.Errorf("migration %d: %+v", i, m.name)
		}
	}
}

func TestLoadMigrationsRejectsBadSets(t *testing.T) {
	file := &fstest.MapFile{Data: []byte("SELECT 1;")}
	tests := []struct {
		name  string
		files fstest.MapFS
	}{
		{"gap", fstest.MapFS{"0001_a.sql": file, "0003_c.sql": file}},
		{"duplicate", fstest.MapFS{"0001_a.sql": file, "0001_b.sql": file}},
		{"starts at two", fstest.MapFS{"0002_a.sql": file}},
		{"bad name", fstest.MapFS{"0001_a.sql": file, "2_b.sql": file}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if migs, err := loadMigrations(tt.files); err == nil {
				t.Fatalf("loaded %d migrations, want an error", len(migs))
			}
		})
	}
}

// TestMigrateFromEveryVersion brings databases left at every earlier version
// (and a missing file) up to the latest, and compares each schema with a
// fresh one.
func TestMigrateFromEveryVersion(t *testing.T) {
	latest := len(embedded(t))
	fresh := openStore(t, t.TempDir())
	wantSchema, wantVersion := schemaOf(t, fresh.writer)
	if wantVersion != latest {
		t.Fatalf("a fresh database is at version %d, want %d", wantVersion, latest)
	}
	for n := -1; n <= latest; n++ {
		name := "no file"
		if n >= 0 {
			name = "from version " + strconv.Itoa(n)
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if n >= 0 {
				buildAtVersion(t, dir, n)
			}
			s := openStore(t, dir)
			gotSchema, gotVersion := schemaOf(t, s.writer)
			if gotVersion != latest || !reflect.DeepEqual(gotSchema, wantSchema) {
				t.Fatalf("version %d, schema\n%s\nwant version %d, schema\n%s",
					gotVersion, strings.Join(gotSchema, "\n"), latest, strings.Join(wantSchema, "\n"))
			}
		})
	}
}

// TestAddingATableIsAddingAFile runs a later migration on a database the
// shipped ones built, and checks that a failing one leaves no trace.
func TestAddingATableIsAddingAFile(t *testing.T) {
	shipped := embedded(t)
	with := func(sql string) []migration {
		files := fstest.MapFS{}
		for _, m := range shipped {
			files[m.name] = &fstest.MapFile{Data: []byte(m.sql)}
		}
		files[strconv.Itoa(10000 + len(shipped) + 1)[1:]+"_extra.sql"] = &fstest.MapFile{Data: []byte(sql)}
		migs, err := loadMigrations(files)
		if err != nil {
			t.Fatal(err)
		}
		return migs
	}
	dir := t.TempDir()
	s := openStore(t, dir)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	// A failing migration rolls back completely.
	_, err := open(context.Background(), dir, Options{}, with(`CREATE TABLE extra (x TEXT); SELECT * FROM no_such_table;`))
	if err == nil || !strings.Contains(err.Error(), "_extra.sql") {
		t.Fatalf("a failing migration gave %v", err)
	}
	s = openStore(t, dir)
	schema, v := schemaOf(t, s.writer)
	if v != len(shipped) || strings.Contains(strings.Join(schema, " "), "extra") {
		t.Fatalf("the failed migration left version %d and schema %v", v, schema)
	}
	s.Close()

	s, err = open(context.Background(), dir, Options{}, with(`CREATE TABLE extra (x TEXT NOT NULL);`))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, v := schemaOf(t, s.writer); v != len(shipped)+1 {
		t.Fatalf("version %d after the new migration, want %d", v, len(shipped)+1)
	}
	if _, err := s.writer.Exec(`INSERT INTO extra (x) VALUES ('ok')`); err != nil {
		t.Fatal(err)
	}
}

func TestNewerSchemaIsRefusedAndLeftAlone(t *testing.T) {
	latest := len(embedded(t))
	dir := t.TempDir()
	path := buildAtVersion(t, dir, latest)
	db, err := sql.Open(driverName, writerDSN(path))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("PRAGMA user_version = " + strconv.Itoa(latest+5)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	before := fileBytes(t, path)
	for _, ro := range []bool{false, true} {
		_, err := Open(dir, Options{ReadOnly: ro})
		var ne *NewerSchemaError
		if !errors.As(err, &ne) {
			t.Fatalf("ReadOnly=%v: Open gave %v, want *NewerSchemaError", ro, err)
		}
		if ne.Path != path || ne.Version != latest+5 || ne.Supported != latest {
			t.Errorf("error %+v", ne)
		}
		msg := err.Error()
		for _, part := range []string{path, strconv.Itoa(latest + 5), strconv.Itoa(latest)} {
			if !strings.Contains(msg, part) {
				t.Errorf("message %q does not name %s", msg, part)
			}
		}
		assertUnchanged(t, path, before)
	}
}

// TestAnOpenerWaitsForAMigration holds the migration lock as a migrating
// process would: an Open (read-write or read-only) started meanwhile returns
// only after the lock is let go, and finds the migration done.
func TestAnOpenerWaitsForAMigration(t *testing.T) {
	dir := t.TempDir()
	buildAtVersion(t, dir, 1)
	for _, ro := range []bool{false, true} {
		t.Run("ReadOnly="+strconv.FormatBool(ro), func(t *testing.T) {
			ml, err := openLockFile(filepath.Join(dir, migrateLockName), true)
			if err != nil {
				t.Fatal(err)
			}
			if ok, err := ml.tryLock(true); !ok || err != nil {
				t.Fatal(ok, err)
			}
			var released atomic.Bool
			done := make(chan error, 1)
			go func() {
				s, err := Open(dir, Options{ReadOnly: ro})
				if err == nil && !released.Load() {
					err = errors.New("Open returned while the migration lock was held")
				}
				if err == nil {
					err = s.Close()
				}
				done <- err
			}()
			// The "migration": bring the database to the latest version.
			if !ro {
				db, err := sql.Open(driverName, writerDSN(filepath.Join(dir, dbFileName)))
				if err != nil {
					t.Fatal(err)
				}
				if err := migrate(context.Background(), db, dir, embedded(t)); err != nil {
					t.Fatal(err)
				}
				db.Close()
			}
			released.Store(true)
			ml.close()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestWritesStopWhenANewerSteerMigrates: another process may migrate the
// database while this one has it open; from then on this one refuses to
// write a schema it does not know.
func TestWritesStopWhenANewerSteerMigrates(t *testing.T) {
	f := newFixture(t)
	f.append(t, user("before", 1))
	latest := len(embedded(t))
	if _, err := rawConn(t, f.store.Path()).ExecContext(f.ctx, "PRAGMA user_version = "+strconv.Itoa(latest+1)); err != nil {
		t.Fatal(err)
	}
	err := f.store.AppendMessage(f.ctx, testSession, testRun, user("after", 2))
	var ne *NewerSchemaError
	if !errors.As(err, &ne) || ne.Version != latest+1 || ne.Supported != latest {
		t.Fatalf("a write after a newer steer migrated gave %v, want *NewerSchemaError", err)
	}
	if got := f.transcript(t); len(got) != 1 {
		t.Errorf("the refused write left %d messages", len(got))
	}
}
