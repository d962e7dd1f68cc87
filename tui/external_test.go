package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"
)

// editorScript writes an executable shell script that plays the user's
// editor: it is called with the file to edit as its last argument, which
// the script's body finds in $f.
func editorScript(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "editor.sh")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestProgramExternalEditor runs the real program with VISUAL set to a
// script: Ctrl+G hands it the editor's text and takes back what it left,
// unless it failed; the editor's file is gone after.
func TestProgramExternalEditor(t *testing.T) {
	for _, c := range []struct {
		name, script string
		want, hint   string
	}{
		{name: "appends", script: `printf 'added line\n' >> "$f"`, want: "draft\nadded line"},
		{name: "fails", script: `printf 'lost\n' >> "$f"; exit 1`, want: "draft", hint: "exited with status 1 · the text is unchanged"},
		{name: "missing", script: "", want: "draft", hint: "cannot run"},
	} {
		t.Run(c.name, func(t *testing.T) {
			editor := filepath.Join(t.TempDir(), "no-such-editor")
			if c.script != "" {
				editor = editorScript(t, `for f; do :; done; printf '%s' "$f" > "$(dirname "$0")/edited"`+"\n"+c.script)
			}
			t.Setenv("VISUAL", editor+" --wait") // arguments are kept
			tm := startProgram(t, newRuntime(t, nil))
			tm.Type("draft")
			tm.Send(tea.KeyMsg{Type: tea.KeyCtrlG})
			lines := strings.Split(c.want, "\n")
			want := lines[len(lines)-1]
			if c.hint != "" {
				want = c.hint
			}
			waitOutput(t, tm, want)
			if err := tm.Quit(); err != nil {
				t.Fatal(err)
			}
			final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(Model)
			if got := final.input.Value(); got != c.want {
				t.Errorf("editor holds %q, want %q", got, c.want)
			}
			if c.script == "" {
				return
			}
			edited, err := os.ReadFile(filepath.Join(filepath.Dir(editor), "edited"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(string(edited)); !os.IsNotExist(err) {
				t.Errorf("the editor's file %s is still there (%v)", edited, err)
			}
			if c.name == "appends" {
				golden.RequireEqual(t, []byte(final.View()))
			}
		})
	}
}
