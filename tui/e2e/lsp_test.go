package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/lsp/lsptest"
)

// TestLSPInTmux: with gopls, as a user sees it: a write of a Go file with
// a type error shows gopls's diagnostic in the tool's result; /lsp lists
// gopls ready with one open file and one error, and its clear key
// restarts it.
func TestLSPInTmux(t *testing.T) {
	dir := lsptest.GoplsDir(t)
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "go.mod"), []byte("module example.com/m\n\ngo 1.22\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := startPane(t, fmt.Sprintf("cd %q && PATH=%q:$PATH exec %q --state-dir %q --approve auto --pace 0", ws, dir, steerBin, t.TempDir()))

	p.typeText(`call write {"path": "main.go", "content": "package main\n\nfunc main() { undefinedName() }\n"}`, "Enter")
	p.waitFor("the diagnostic in the result", "main.go:3:15 error undefined: undefinedName", 30*time.Second)

	p.typeText("/lsp", "Enter")
	p.waitFor("the inspector", "Language servers", 5*time.Second)
	p.waitFor("gopls's row", "gopls (on PATH)", 5*time.Second)
	if screen := p.screen(); !rowWith(screen, "go", "gopls", "ready", "1 error") {
		t.Fatalf("/lsp does not show gopls ready with one error:\n%s", screen)
	}
	p.waitFor("the restart key", "restart language server", 5*time.Second)
	p.typeText("c")
	p.waitFor("the confirmation", "Restart the language server go?", 5*time.Second)
	time.Sleep(quiet) // a deliberate key, not one typed ahead
	p.typeText("y")
	p.waitFor("the outcome", "restarted the language server go", 10*time.Second)
}
