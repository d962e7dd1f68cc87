package screen

import (
	"fmt"
	"io"

	xterm "github.com/charmbracelet/x/term"
)

// file is a terminal's side of an io.Reader or io.Writer: what raw mode and
// the size need.
type file interface{ Fd() uintptr }

// terminalFd is w's file descriptor when w is a terminal.
func terminalFd(w any) (uintptr, bool) {
	f, ok := w.(file)
	if !ok || !xterm.IsTerminal(f.Fd()) {
		return 0, false
	}
	return f.Fd(), true
}

// rawInput is a terminal put in raw mode, with the mode to restore.
type rawInput struct {
	fd    uintptr
	state *xterm.State
}

// makeRaw puts in in raw mode when it is a terminal; nil when it is not.
func makeRaw(in io.Reader) (*rawInput, error) {
	fd, ok := terminalFd(in)
	if !ok {
		return nil, nil
	}
	state, err := xterm.MakeRaw(fd)
	if err != nil {
		return nil, fmt.Errorf("entering raw mode: %w", err)
	}
	return &rawInput{fd: fd, state: state}, nil
}

func (r *rawInput) restore() error {
	if r == nil {
		return nil
	}
	if err := xterm.Restore(r.fd, r.state); err != nil {
		return fmt.Errorf("restoring the terminal: %w", err)
	}
	return nil
}

// Size is out's size, when out is a terminal that can tell.
func Size(out io.Writer) (width, height int, ok bool) {
	fd, isTerm := terminalFd(out)
	if !isTerm {
		return 0, 0, false
	}
	w, h, err := xterm.GetSize(fd)
	return w, h, err == nil
}
