package term

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// Clipboard is the OSC 52 sequence that puts text on the terminal's
// clipboard. It reaches the terminal over ssh; tmux takes it itself, into a
// paste buffer and on to the terminal, when its set-clipboard option is on
// (its default, external, drops it), so it is never wrapped for tmux.
func Clipboard(text string) string { return ansi.SetSystemClipboard(text) }

// SystemClipboard is a command-line tool that fills the system clipboard
// from its standard input. The zero value is none.
type SystemClipboard struct {
	// Name is the tool, as the user is told it was used ("wl-copy").
	Name string
	path string
	args []string
}

// systemTools are the tools FindSystemClipboard tries, in order, with what
// each needs: a display variable set, or the platform.
var systemTools = []struct {
	name string
	args []string
	env  string // a variable that must be set, "" for none
	goos string // the platform it is for, "" for any
}{
	{"wl-copy", nil, "WAYLAND_DISPLAY", ""},
	{"xclip", []string{"-selection", "clipboard"}, "DISPLAY", ""},
	{"xsel", []string{"--clipboard", "--input"}, "DISPLAY", ""},
	{"pbcopy", nil, "", "darwin"},
	{"clip.exe", nil, "", "windows"},
}

// FindSystemClipboard finds the system clipboard's tool for the platform
// goos and the environment (getenv), looked up with lookPath
// (exec.LookPath); ok is false when none is reachable. Over ssh with no
// display forwarded there is none: the host's clipboard is not the user's,
// and OSC 52 reaches theirs.
func FindSystemClipboard(goos string, getenv func(string) string, lookPath func(string) (string, error)) (SystemClipboard, bool) {
	remote := getenv("SSH_CONNECTION") != "" || getenv("SSH_TTY") != ""
	for _, t := range systemTools {
		switch {
		case t.env != "" && getenv(t.env) == "":
			continue
		case t.goos != "" && (t.goos != goos || remote):
			continue
		}
		if path, err := lookPath(t.name); err == nil {
			return SystemClipboard{Name: t.name, path: path, args: t.args}, true
		}
	}
	return SystemClipboard{}, false
}

// copyTimeout bounds a tool that does not end: the clipboard is worth a
// moment, not a stuck command.
const copyTimeout = 3 * time.Second

// Copy runs the tool with text on its standard input. Its output is not
// read: xclip and wl-copy leave a process behind that owns the selection,
// and reading its output would wait for that process to end.
func (c SystemClipboard) Copy(ctx context.Context, text string) error {
	if c.path == "" {
		return fmt.Errorf("no system clipboard")
	}
	ctx, cancel := context.WithTimeout(ctx, copyTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.path, c.args...)
	cmd.Stdin = strings.NewReader(text)
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w", c.Name, err)
	}
	return nil
}
