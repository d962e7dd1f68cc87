// Package persisttest helps tests put a steer database in the states other
// processes leave it in.
package persisttest

import (
	"context"
	"database/sql"
	"sync"
	"testing"

	_ "modernc.org/sqlite" // the driver
)

// HoldWriteLock makes another connection hold the write lock of the
// database at path, as another process's long transaction would, until
// release is called or the test ends.
func HoldWriteLock(t testing.TB, path string) (release func()) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)") // past the writes it waits behind
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		db.Close()
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		conn.Close()
		db.Close()
		t.Fatal(err)
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			_, _ = conn.ExecContext(context.Background(), "ROLLBACK")
			conn.Close()
			db.Close()
		})
	}
	t.Cleanup(release)
	return release
}
