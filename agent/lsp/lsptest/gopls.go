// Package lsptest finds a real gopls for steer's end-to-end tests, or
// builds the release they pin.
package lsptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// GoplsVersion is the gopls GoplsDir installs when none is found: a
// release that builds with the machine's Go.
const GoplsVersion = "v0.23.0"

// GoplsDir is the directory of a gopls binary: the one on PATH, else
// ~/go/bin's, else GoplsVersion installed into the user's cache directory
// (once per machine: later runs find it there). t is skipped, saying why,
// only when none is found and it cannot be built.
func GoplsDir(t testing.TB) string {
	t.Helper()
	if p, err := exec.LookPath("gopls"); err == nil {
		return filepath.Dir(p)
	}
	if home, err := os.UserHomeDir(); err == nil {
		if bin := filepath.Join(home, "go", "bin"); exists(filepath.Join(bin, "gopls")) {
			return bin
		}
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skipf("gopls is not installed and there is no cache directory to build it into: %v", err)
	}
	dir := filepath.Join(cache, "steer-e2e", "gopls-"+GoplsVersion)
	if exists(filepath.Join(dir, "gopls")) {
		return dir
	}
	cmd := exec.Command("go", "install", "golang.org/x/tools/gopls@"+GoplsVersion)
	cmd.Env = append(os.Environ(), "GOBIN="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("gopls is not installed and could not be built (go install golang.org/x/tools/gopls@%s): %v\n%s",
			GoplsVersion, err, out)
	}
	return dir
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
