package input

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/tui/msgs"
)

// The external editor (Ctrl+G) takes three steps, so that no IO happens in
// Update:
//
//  1. a Cmd writes the editor's text, pastes expanded, to a temporary file
//     and builds the editor's command ($VISUAL, else $EDITOR, else vi; the
//     variable may hold arguments: "code --wait");
//  2. the root hands it the terminal (msgs.RunProcessMsg, tea.ExecProcess);
//     the callback, run once the program has the terminal back, reads the
//     file and removes it;
//  3. the text read replaces the editor's, unless the editor failed to
//     start or exited non-zero: then the text stays as it was and the hint
//     says why.
//
// The pastes are expanded into the file so that the user edits the real
// text; what comes back is plain text again (a large text is held as one
// paste, as when it was pasted).

// ExternalEditMsg reports that the external editor ended: text is what it
// left in the file, err why nothing is taken from it. The root hands it to
// the editor whatever has the focus.
type ExternalEditMsg struct {
	text string
	err  error
}

// fallbackEditor runs when neither VISUAL nor EDITOR is set.
const fallbackEditor = "vi"

// openExternal is the Cmd of step 1.
func openExternal(text string) tea.Cmd {
	return func() tea.Msg {
		argv := editorCommand(os.Getenv("VISUAL"), os.Getenv("EDITOR"))
		// An editor that is not there fails here, without the terminal
		// leaving the screen and coming back for nothing.
		if _, err := exec.LookPath(argv[0]); err != nil {
			return ExternalEditMsg{err: editorFailure(argv[0], err)}
		}
		f, err := os.CreateTemp("", "steer-prompt-*.md")
		if err != nil {
			return ExternalEditMsg{err: fmt.Errorf("no temporary file for the editor: %w", err)}
		}
		if text != "" {
			text += "\n" // a text file's lines end with one; it is taken off again
		}
		_, err = f.WriteString(text)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			_ = os.Remove(f.Name())
			return ExternalEditMsg{err: fmt.Errorf("writing the editor's file: %w", err)}
		}
		return editorProcess(f.Name(), argv)
	}
}

// editorCommand is the command line of the editor the user chose: VISUAL's
// words, else EDITOR's, else vi. Words are split at spaces, as git and
// most shells' users expect of "code --wait".
func editorCommand(visual, editor string) []string {
	for _, v := range []string{visual, editor} {
		if words := strings.Fields(v); len(words) > 0 {
			return words
		}
	}
	return []string{fallbackEditor}
}

// editorProcess asks for step 2: the editor on the file, with the
// terminal, and the file read back and removed once it ended.
func editorProcess(path string, argv []string) msgs.RunProcessMsg {
	args := append(append([]string(nil), argv[1:]...), path)
	return msgs.RunProcessMsg{Cmd: exec.Command(argv[0], args...), Done: func(err error) tea.Msg {
		defer os.Remove(path)
		if err != nil {
			return ExternalEditMsg{err: editorFailure(argv[0], err)}
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return ExternalEditMsg{err: fmt.Errorf("reading the editor's file: %w", err)}
		}
		return ExternalEditMsg{text: normalizeNewlines(string(b))}
	}}
}

// editorFailure words why the editor's text is not taken.
func editorFailure(name string, err error) error {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return fmt.Errorf("%s exited with status %d", filepath.Base(name), exit.ExitCode())
	}
	return fmt.Errorf("cannot run %s: %w", filepath.Base(name), err)
}

// handleExternal takes the text the editor left, if it ended well.
func (m *Model) handleExternal(msg ExternalEditMsg) tea.Cmd {
	if msg.err != nil {
		why := msg.err.Error() + " · the text is unchanged"
		return func() tea.Msg { return msgs.HintMsg{Text: why} }
	}
	// An editor leaves a final newline the user did not type.
	text := strings.TrimSuffix(msg.text, "\n")
	m.pastes = nil
	if Large(text) {
		m.ta.SetValue("")
		m.hold(text)
	} else {
		m.ta.SetValue(text)
	}
	m.dismissed = false
	m.sync()
	return nil
}

// EditFile opens the file at path itself in the user's editor (a plan
// file), chosen as for the editor's text: the Cmd answers with the
// msgs.RunProcessMsg the root runs, and the program gets done(err) once
// the editor ended, err saying why it failed (nil when it exited well); an
// editor that is not there answers done at once, without leaving the
// screen.
func EditFile(path string, done func(err error) tea.Msg) tea.Cmd {
	return func() tea.Msg {
		argv := editorCommand(os.Getenv("VISUAL"), os.Getenv("EDITOR"))
		if _, err := exec.LookPath(argv[0]); err != nil {
			return done(editorFailure(argv[0], err))
		}
		args := append(append([]string(nil), argv[1:]...), path)
		return msgs.RunProcessMsg{Cmd: exec.Command(argv[0], args...), Done: func(err error) tea.Msg {
			if err != nil {
				return done(editorFailure(argv[0], err))
			}
			return done(nil)
		}}
	}
}
