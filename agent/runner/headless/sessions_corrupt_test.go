package headless

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/steer-tui/steer/persistence"
)

// TestSessionsOnACorruptPage: a database whose sessions table has a garbage
// data page opens, and `steer sessions` then says it is corrupt and to move
// it aside, exiting 2 as for a foreign file, rather than SQLite's raw words.
func TestSessionsOnACorruptPage(t *testing.T) {
	dir := t.TempDir()
	store, err := persistence.Open(dir, persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 300 {
		if err := store.CreateSession(context.Background(), persistence.Session{ID: fmt.Sprintf("s%03d", i), Title: strings.Repeat("title ", 10)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "steer.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	var pageSize, page int64
	err = db.QueryRow(`PRAGMA page_size`).Scan(&pageSize)
	if err == nil {
		err = db.QueryRow(`SELECT pageno FROM dbstat WHERE name = 'sessions' AND pagetype = 'leaf' ORDER BY pageno LIMIT 1`).Scan(&page)
	}
	if cerr := db.Close(); err != nil || cerr != nil {
		t.Fatal(err, cerr)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte(strings.Repeat("\xff", int(pageSize))), (page-1)*pageSize); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	var out, errb strings.Builder
	code := Sessions(context.Background(), SessionsOptions{StateDir: dir}, &out, &errb)
	want := "steer: database " + path + " is corrupt or not a steer database ("
	if code != ExitUsage || !strings.HasPrefix(errb.String(), want) || !strings.HasSuffix(errb.String(), "it was left untouched — move it aside to start afresh\n") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
}
