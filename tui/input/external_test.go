package input

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/steer-tui/steer/tui/msgs"
)

func TestEditorCommand(t *testing.T) {
	for _, c := range []struct {
		visual, editor string
		want           []string
	}{
		{"", "", []string{"vi"}},
		{"", "nano", []string{"nano"}},
		{"code --wait", "nano", []string{"code", "--wait"}},
		{"  ", "emacs -nw", []string{"emacs", "-nw"}},
	} {
		if got := editorCommand(c.visual, c.editor); !reflect.DeepEqual(got, c.want) {
			t.Errorf("editorCommand(%q, %q) = %q, want %q", c.visual, c.editor, got, c.want)
		}
	}
}

// TestExternalFileHoldsPastes: the file the editor opens holds the text
// with its pastes expanded, the real text the user edits.
func TestExternalFileHoldsPastes(t *testing.T) {
	bin := t.TempDir() // the editor must be there to be handed the file
	if err := os.WriteFile(filepath.Join(bin, "my-editor"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("VISUAL", "my-editor -f")
	m := newInput()
	m.SetValue("see ")
	big := strings.Repeat("log line\n", 20)
	m.hold(big)
	msg, ok := openExternal(m.Text())().(msgs.RunProcessMsg)
	if !ok {
		t.Fatalf("no process to run for an editor on PATH")
	}
	args := msg.Cmd.Args
	path := args[len(args)-1]
	defer os.Remove(path)
	if !reflect.DeepEqual(args[:len(args)-1], []string{"my-editor", "-f"}) {
		t.Errorf("args = %q", args)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := "see " + big + "\n"; string(b) != want {
		t.Errorf("file holds %q, want %q", b, want)
	}
}

func TestExternalDone(t *testing.T) {
	large := strings.Repeat("x\n", 40)
	for _, c := range []struct {
		name      string
		msg       ExternalEditMsg
		value     string
		hint      string
		holdsText string
	}{
		{name: "edited", msg: ExternalEditMsg{text: "new text\n"}, value: "new text"},
		{name: "failed", msg: ExternalEditMsg{err: errors.New("vi exited with status 1")},
			value: "old", hint: "vi exited with status 1 · the text is unchanged"},
		{name: "large", msg: ExternalEditMsg{text: large}, value: Placeholder(1, strings.TrimSuffix(large, "\n")),
			holdsText: strings.TrimSuffix(large, "\n")},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := newInput()
			m.SetValue("old")
			m, cmd := m.Update(c.msg)
			if got := m.Value(); got != c.value {
				t.Errorf("value = %q, want %q", got, c.value)
			}
			var hint string
			if cmd != nil {
				hint = cmd().(msgs.HintMsg).Text
			}
			if hint != c.hint {
				t.Errorf("hint = %q, want %q", hint, c.hint)
			}
			if c.holdsText != "" && m.Text() != c.holdsText {
				t.Errorf("Text() = %q, want the whole edited text", m.Text())
			}
		})
	}
}

// TestExternalMissingEditor: an editor that is not on PATH is reported
// without handing the terminal over.
func TestExternalMissingEditor(t *testing.T) {
	t.Setenv("VISUAL", "no-such-editor-anywhere --wait")
	msg, ok := openExternal("draft")().(ExternalEditMsg)
	if !ok || msg.err == nil || !strings.HasPrefix(msg.err.Error(), "cannot run no-such-editor-anywhere") {
		t.Fatalf("got %#v, want the editor reported missing", msg)
	}
}
