package screen

import (
	"fmt"

	"github.com/charmbracelet/x/ansi"
	xterm "github.com/charmbracelet/x/term"
)

// Suspend hands the terminal to another program for a while (an external
// editor): it leaves the alternate screen, shows the cursor, turns
// bracketed paste and the mouse off and restores the input's mode, as
// Close does, but keeps the screen: views drawn meanwhile wait for Resume.
func (s *Screen) Suspend() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.suspended {
		return nil
	}
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	s.suspended = true
	s.write(s.unmodes + ansi.ResetBracketedPasteMode + ansi.ShowCursor + mouseOff + ansi.ResetAltScreenSaveCursorMode)
	return s.input.restore()
}

// Resume takes the terminal back after Suspend: raw input, the alternate
// screen with the modes the program had, and the whole latest view drawn
// again, since the other program left its own content behind.
func (s *Screen) Resume() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || !s.suspended {
		return nil
	}
	s.suspended = false
	var err error
	if s.input != nil { // raw again; Close still restores the mode from before Open
		if _, err = xterm.MakeRaw(s.input.fd); err != nil {
			err = fmt.Errorf("entering raw mode again: %w", err)
		}
	}
	seq := ansi.SetAltScreenSaveCursorMode + ansi.EraseEntireScreen + ansi.CursorHomePosition +
		ansi.HideCursor + ansi.SetBracketedPasteMode + s.modes
	if s.mouse {
		seq += ansi.SetButtonEventMouseMode + ansi.SetSgrExtMouseMode
	}
	s.write(seq)
	s.frame.resize(s.frame.width, s.frame.height) // clears and draws every line
	s.dirty = true
	s.flush()
	return err
}
