package steerbin

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// READMEConfig returns README.md's configuration example (the first json
// block under "## Real providers"), so that tests follow the README.
func READMEConfig(t testing.TB) string {
	t.Helper()
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the module")
	}
	data, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(data), "## Real providers")
	_, rest, found := strings.Cut(rest, "```json\n")
	example, _, closed := strings.Cut(rest, "```")
	if !found || !closed {
		t.Fatal("README.md has no json example under Real providers")
	}
	return example
}
