package headless

import (
	"context"
	"strings"
	"testing"

	"github.com/steer-tui/steer/persistence"
)

// TestSessionsWhileAnotherSteerRuns: `steer sessions` reads the database
// that another steer has open, and says when there is nothing or no such
// session.
func TestSessionsWhileAnotherSteerRuns(t *testing.T) {
	dir := t.TempDir()
	other, err := persistence.Open(dir, persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()

	var out, errb strings.Builder
	if code := Sessions(context.Background(), SessionsOptions{StateDir: dir}, &out, &errb); code != ExitOK ||
		out.String() != "No saved sessions yet.\n" || errb.String() != "" {
		t.Errorf("list: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	out.Reset()
	if code := Sessions(context.Background(), SessionsOptions{StateDir: dir, JSON: true}, &out, &errb); code != ExitOK ||
		strings.TrimSpace(out.String()) != "[]" {
		t.Errorf("list --json: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	out.Reset()
	code := Sessions(context.Background(), SessionsOptions{StateDir: dir, Show: "nope"}, &out, &errb)
	if want := "steer: no saved session \"nope\"; 'steer sessions' lists them\n"; code != ExitUsage || errb.String() != want {
		t.Errorf("show nope: exit %d, stderr %q; want %q", code, errb.String(), want)
	}
}
