package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startSteerWithEditor is startSteer with EDITOR set to a shell script of
// body, which finds the file to edit in $1 (VISUAL is cleared: it would
// win).
func startSteerWithEditor(t *testing.T, body string) *pane {
	t.Helper()
	script := filepath.Join(t.TempDir(), "editor.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return startPane(t, fmt.Sprintf("VISUAL= EDITOR=%q exec %q --state-dir %q --approve auto", script, steerBin, t.TempDir()))
}

// TestCtrlGEditsInEditor: Ctrl+G hands the text to $EDITOR with the
// terminal and takes back the line it added.
func TestCtrlGEditsInEditor(t *testing.T) {
	p := startSteerWithEditor(t, `echo "added by the editor" >> "$1"`)
	p.typeText("draft")
	p.waitFor("the draft", "› draft", 5*time.Second)
	p.typeText("", "C-g")
	p.waitFor("the edited text", "  added by the editor", 5*time.Second)
	if s := p.screen(); !strings.Contains(s, "› draft") {
		t.Fatalf("the draft is gone:\n%s", s)
	}
	p.typeText("", "Enter")
	p.waitFor("the answer to both lines", "added by the editor", 10*time.Second)
}

// TestCtrlGFailedEditorKeepsText: an editor that exits 1 changes nothing,
// and the hint says why.
func TestCtrlGFailedEditorKeepsText(t *testing.T) {
	p := startSteerWithEditor(t, `echo "lost" >> "$1"; exit 1`)
	p.typeText("draft")
	p.waitFor("the draft", "› draft", 5*time.Second)
	p.typeText("", "C-g")
	p.waitFor("the hint", "exited with status 1 · the text is unchanged", 5*time.Second)
	if s := p.screen(); strings.Contains(s, "lost") || !strings.Contains(s, "› draft") {
		t.Fatalf("the editor's failed edit was taken:\n%s", s)
	}
}
