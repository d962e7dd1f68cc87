package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/tools"
	"github.com/steer-tui/steer/failover"
)

// memoryWorkspace builds context files at every level under a new
// directory, which is also the home directory where the walk up would end:
// a global AGENTS.md of 1.5 KB, a repository root with an AGENTS.md and a
// CLAUDE.md beside it (passed over), a directory with a CLAUDE.md alone,
// and the workspace's AGENTS.md. It returns the workspace and the sources.
func memoryWorkspace(t *testing.T) (string, *tools.ContextSources) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(base, "repo")
	ws := filepath.Join(repo, "mid", "workspace")
	files := map[string]string{
		filepath.Join(base, "config", "steer", "AGENTS.md"): strings.Repeat("Keep the global rules short.\n", 53),
		filepath.Join(repo, "AGENTS.md"):                    "Run go test before you commit.\n",
		filepath.Join(repo, "CLAUDE.md"):                    "Passed over: an AGENTS.md is beside it.\n",
		filepath.Join(repo, "mid", "CLAUDE.md"):             "The middle directory's rules.\n",
		filepath.Join(ws, "AGENTS.md"):                      "The workspace's own rules.\n",
	}
	for _, dir := range []string{filepath.Join(repo, ".git"), filepath.Join(base, "config", "steer"), ws} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for path, text := range files {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return ws, &tools.ContextSources{Global: filepath.Join(base, "config", "steer"), Home: base}
}

// TestProgramListsContextFiles: /memory lists the context files outermost
// first, each with its level and its size (the global one in KB), and the
// CLAUDE.md beside an AGENTS.md as skipped.
func TestProgramListsContextFiles(t *testing.T) {
	ws, src := memoryWorkspace(t)
	rt := rotationRuntime(t, &fakeClock{t: epoch}, &failover.MemLedger{}, func(o *runner.Options) {
		o.Workspace, o.ContextFiles = ws, src
	})
	tm := startProgram(t, rt)
	tm.Type("/memory")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitOutput(t, tm, "Context files", "1 skipped")
	lastFrame(t, tm)
}
