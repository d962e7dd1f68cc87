package headless

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steer-tui/steer/persistence"
	"github.com/steer-tui/steer/persistence/persisttest"
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
	persisttest.CorruptPage(t, path, "sessions", persisttest.LeafPage)

	var out, errb strings.Builder
	code := Sessions(context.Background(), SessionsOptions{StateDir: dir}, &out, &errb)
	want := "steer: database " + path + " is corrupt or not a steer database ("
	if code != ExitUsage || !strings.HasPrefix(errb.String(), want) || !strings.HasSuffix(errb.String(), "it was left untouched — move it aside to start afresh\n") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
}
