package persisttest

import (
	"database/sql"
	"os"
	"strings"
	"testing"
)

// The pages CorruptPage can fill with garbage.
const (
	RootPage = "root" // the table's root page
	LeafPage = "leaf" // the first of its data pages, by dbstat
)

// CorruptPage fills one page of table in the closed database at path with
// garbage, as a torn write or a bad disk would: the page pick names. The
// header and the schema stay sound, so the database opens; only a read or
// write of that page meets the garbage.
func CorruptPage(t testing.TB, path, table, pick string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	var pageSize, page int64
	q := `SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno LIMIT 1`
	if pick == RootPage {
		q = `SELECT rootpage FROM sqlite_schema WHERE name = ?`
	}
	err = db.QueryRow(`PRAGMA page_size`).Scan(&pageSize)
	if err == nil {
		err = db.QueryRow(q, table).Scan(&page)
	}
	if cerr := db.Close(); err != nil || cerr != nil {
		t.Fatal(err, cerr)
	}
	if page <= 1 {
		t.Fatalf("the %s table's %s page is %d, the schema's", table, pick, page)
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
}
