package tools

import (
	"os"
	"strings"
	"testing"
)

func TestProjectContextNamesTheRoot(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, "AGENTS.md", "rules-4410\n")
	got := ProjectContext(ws)
	if !strings.HasPrefix(got, "# Project context\n\nWorkspace root: "+newWorkspace(ws).root+" ") {
		t.Errorf("context does not start with the workspace root: %.120q", got)
	}
	if strings.Contains(got, "rules-4410") {
		t.Errorf("the project context carries AGENTS.md, which the context files carry: %q", got)
	}
}

// symlink makes link point to target.
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
