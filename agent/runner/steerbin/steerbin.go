// Package steerbin builds the steer binary once for a package of end-to-end
// tests, so that they drive the real program: the command line, the
// terminal, signals, several processes on one state directory.
package steerbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// EnvBinary names a binary to test instead of building one (a binary built
// elsewhere, e.g. from a clean tree).
const EnvBinary = "STEER_E2E_BIN"

// Main is a TestMain: it builds steer (or takes the binary EnvBinary names),
// stores its path in *bin, runs the tests and exits with their status.
func Main(m *testing.M, bin *string) {
	os.Exit(run(m, bin))
}

func run(m *testing.M, bin *string) int {
	if path := os.Getenv(EnvBinary); path != "" {
		*bin = path
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "steer-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	*bin = filepath.Join(dir, "steer")
	build := exec.Command("go", "build", "-o", *bin, "github.com/steer-tui/steer")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building steer:", err)
		return 1
	}
	return m.Run()
}
